# syntax=docker/dockerfile:1
# reqlint in a container: a static musl binary on an empty image, run as a non-root user.
#
#   docker build -t reqlint .
#   docker run --rm -v "$PWD:/work" reqlint                       # reqlint check .
#   docker run --rm -v "$PWD:/work" reqlint check --format sarif requests/
#
# The release workflow (.github/workflows/release.yml) builds it on an x86_64 and an
# aarch64 runner and publishes both as one multi-architecture image; see docs/release.md.

ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-alpine AS build
WORKDIR /src
COPY . .
# mimalloc's C code needs the C library's headers: the rust:alpine image has gcc but not
# musl-dev. (Unpinned: Alpine keeps one version of it per release, the one the base
# image's release has.)
# hadolint ignore=DL3018
RUN apk add --no-cache musl-dev
# The published binaries' build: the `dist` profile (fat LTO) for the musl target of this
# machine's architecture. Rust links musl statically, so the binary needs nothing from the
# final image.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    target="$(uname -m)-unknown-linux-musl" \
    && cargo build --locked --profile dist --target "$target" \
    && cp "target/$target/dist/reqlint" /usr/local/bin/reqlint \
    && /usr/local/bin/reqlint --version

FROM scratch
ARG VERSION=dev
LABEL org.opencontainers.image.title="reqlint" \
      org.opencontainers.image.description="An offline linter for API request files" \
      org.opencontainers.image.source="https://github.com/reqlint/reqlint" \
      org.opencontainers.image.documentation="https://github.com/reqlint/reqlint/blob/main/docs/release.md" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}"
COPY --from=build /usr/local/bin/reqlint /usr/local/bin/reqlint
# Mount the repository to lint here; `check` with no PATH lints the working directory.
WORKDIR /work
# An unprivileged user (the image has no /etc/passwd: numeric ids). Pass
# `--user "$(id -u):$(id -g)"` to `docker run` for `--fix` to write the mounted files.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/reqlint"]
CMD ["check"]
