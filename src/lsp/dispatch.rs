//! Typed dispatch: a message handed to the handler of its method, with its params read
//! into that method's type (`lsp_types::request::*`, `lsp_types::notification::*`). Generic
//! over the state the handlers take, so that it does not depend on the server.

use lsp_server::{ErrorCode, ExtractError, Notification, Request, Response};

/// A request on its way to the handler of its method; answered -32602 when its params
/// cannot be read into the method's type, -32601 when no handler takes it.
pub struct RequestDispatch<'a, S> {
    server: &'a mut S,
    state: RequestState,
}

enum RequestState {
    Pending(Request),
    Answered(Response),
}

impl<'a, S> RequestDispatch<'a, S> {
    pub fn new(server: &'a mut S, request: Request) -> RequestDispatch<'a, S> {
        RequestDispatch {
            server,
            state: RequestState::Pending(request),
        }
    }

    pub fn on<R: lsp_types::request::Request>(
        mut self,
        handler: impl FnOnce(&mut S, R::Params) -> R::Result,
    ) -> Self {
        let RequestState::Pending(request) = self.state else {
            return self;
        };
        let id = request.id.clone();
        self.state = match request.extract::<R::Params>(R::METHOD) {
            Ok((id, params)) => {
                let result = handler(self.server, params);
                RequestState::Answered(Response::new_ok(id, result))
            }
            Err(ExtractError::MethodMismatch(request)) => RequestState::Pending(request),
            Err(ExtractError::JsonError { method, error }) => {
                // serde's message may quote a value the client sent: redacted as every
                // other text the server writes.
                let message = crate::redact::Redactor::none()
                    .line(&format!("invalid params of {method}: {error}"));
                let code = ErrorCode::InvalidParams as i32;
                RequestState::Answered(Response::new_err(id, code, message))
            }
        };
        self
    }

    pub fn finish(self) -> Response {
        match self.state {
            RequestState::Answered(response) => response,
            RequestState::Pending(request) => {
                let message = format!("reqlint does not handle {}", request.method);
                Response::new_err(request.id, ErrorCode::MethodNotFound as i32, message)
            }
        }
    }
}

/// A notification on its way to the handler of its method; one whose params cannot be
/// read into the method's type, or that no handler takes, is dropped (a notification
/// has no answer).
pub struct NotificationDispatch<'a, S> {
    server: &'a mut S,
    notification: Option<Notification>,
}

impl<'a, S> NotificationDispatch<'a, S> {
    pub fn new(server: &'a mut S, notification: Notification) -> NotificationDispatch<'a, S> {
        NotificationDispatch {
            server,
            notification: Some(notification),
        }
    }

    pub fn on<N: lsp_types::notification::Notification>(
        mut self,
        handler: fn(&mut S, N::Params),
    ) -> Self {
        if let Some(notification) = self.notification.take() {
            match notification.extract::<N::Params>(N::METHOD) {
                Ok(params) => handler(self.server, params),
                Err(ExtractError::MethodMismatch(notification)) => {
                    self.notification = Some(notification);
                }
                Err(ExtractError::JsonError { .. }) => {}
            }
        }
        self
    }
}
