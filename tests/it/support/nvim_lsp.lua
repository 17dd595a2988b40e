-- Neovim as a real LSP client of `reqlint server` (run by tests/it/neovim.rs), set up by
-- the block of docs/ci-and-editors.md for this Neovim's generation ($REQLINT_SETUP; it
-- starts `reqlint` from PATH): diagnostics, a quick fix applied through
-- vim.lsp.buf.code_action, hover text.
-- Writes `OK` or `FAIL <why>` to $REQLINT_DIR/result.txt and quits.
local setup, dir = os.getenv('REQLINT_SETUP'), os.getenv('REQLINT_DIR')
local out = io.open(dir .. '/result.txt', 'w')
local function finish(line)
  out:write(line .. '\n')
  out:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  dofile(setup)
  vim.cmd('edit ' .. dir .. '/a.req.yaml')
  local buf = vim.api.nvim_get_current_buf()
  local clients = vim.lsp.get_clients or vim.lsp.get_active_clients
  local attached = vim.wait(10000, function()
    return #clients({ bufnr = buf, name = 'reqlint' }) > 0
  end, 50)
  if not attached then error('the documented set-up attached no reqlint client') end

  -- Diagnostics, published on open.
  if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then
    error('no diagnostics')
  end
  local seen = false
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('unknown key `parms`', 1, true) and d.lnum == 2 and d.col == 0 then
      seen = true
    end
  end
  if not seen then error('no diagnostic at `parms`: ' .. vim.inspect(vim.diagnostic.get(buf))) end

  -- The quick fix, chosen where a user would pick the preferred one.
  vim.api.nvim_win_set_cursor(0, { 3, 0 })
  vim.ui.select = function(items, _, on_choice)
    for i, item in ipairs(items) do
      if item[2].isPreferred then return on_choice(item, i) end
    end
    on_choice(nil)
  end
  vim.lsp.buf.code_action({ only = { 'quickfix' } })
  local fixed = vim.wait(10000, function()
    return vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]:match('^params:') ~= nil
  end, 50)
  if not fixed then error('quick fix not applied: ' .. vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]) end

  -- Hover on the request line: the call it makes.
  vim.api.nvim_win_set_cursor(0, { 2, 12 })
  local replies = vim.lsp.buf_request_sync(buf, 'textDocument/hover', vim.lsp.util.make_position_params(), 10000)
  local text = ''
  for _, reply in pairs(replies or {}) do
    if reply.result and reply.result.contents then text = text .. reply.result.contents.value end
  end
  if not text:find('POST /act_<id>/campaigns', 1, true) then error('hover: ' .. text) end
end)

if ok then finish('OK') else finish('FAIL ' .. tostring(err)) end
