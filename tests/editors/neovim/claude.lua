-- Run as: nvim --headless -u claude.lua <session>.jsonl   (Neovim 0.7 and newer)
-- Opens a Claude Code session with editors/neovim loaded as a user loads it and writes to $SESSION_LSP_RESULT
-- what the editor showed: the diagnostics (and how long after the file opened they came), the hover at
-- $SESSION_LSP_PROBE's position, the folds and the :SessionTree buffer. Assertions live in test_claude_code.py.
local root = os.getenv('SESSION_LSP_ROOT')
local out = os.getenv('SESSION_LSP_RESULT')
local probe = vim.fn.json_decode(os.getenv('SESSION_LSP_PROBE'))
vim.opt.runtimepath:prepend(root .. '/editors/neovim')
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'

local result = { errors = {}, messages = {} }
local opened = vim.loop.hrtime()
local notify = vim.notify
vim.notify = function(message, level)
  table.insert(result.messages, tostring(message))
  return notify(message, level)
end

if vim.fn.has('nvim-0.11') == 1 then
  vim.lsp.enable('session_lsp')
else
  require('session_lsp').setup()
end

local function finish()
  local file = io.open(out, 'w')
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd('qall!')
end

local function fail(message)
  table.insert(result.errors, message)
end

local function request(bufnr, method, params)
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, 10000)
  for _, response in pairs(responses or {}) do
    if response.err then
      fail(method .. ': ' .. vim.inspect(response.err))
    elseif response.result ~= nil then
      return response.result
    end
  end
  return nil
end

local function code_of(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  result.version = tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch)
  local client
  if not vim.wait(10000, function()
    client = require('session_lsp').client(bufnr)
    return client ~= nil and client.initialized ~= false
  end, 50) then
    fail('no session_lsp client attached (filetype ' .. vim.bo[bufnr].filetype .. ')')
    return
  end

  local diagnostics = {}
  vim.wait(10000, function()
    diagnostics = vim.diagnostic.get(bufnr)
    return #diagnostics > 0
  end, 20)
  result.diagnostics_ms = (vim.loop.hrtime() - opened) / 1e6
  result.diagnostics = {}
  for _, d in ipairs(diagnostics) do
    table.insert(result.diagnostics, { line = d.lnum, code = code_of(d), message = d.message })
  end

  local uri = vim.uri_from_bufnr(bufnr)
  local hover = request(bufnr, 'textDocument/hover', {
    textDocument = { uri = uri }, position = { line = probe.hover[1], character = probe.hover[2] } })
  result.hover = hover and (hover.contents.value or vim.inspect(hover.contents)) or vim.NIL

  result.folds = {}
  for _, fold in ipairs(request(bufnr, 'textDocument/foldingRange', { textDocument = { uri = uri } }) or {}) do
    table.insert(result.folds, { fold.startLine, fold.endLine })
  end

  vim.cmd('SessionTree')
  local tree_buf
  vim.wait(10000, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.bo[b].filetype == 'sessiontree' and #vim.api.nvim_buf_get_lines(b, 0, -1, false) > 1 then
        tree_buf = b
        return true
      end
    end
    return false
  end, 50)
  result.tree = tree_buf and vim.api.nvim_buf_get_lines(tree_buf, 0, -1, false) or vim.NIL
  result.notifications = result.messages
end

vim.api.nvim_create_autocmd('VimEnter', {
  nested = true,
  callback = function()
    local ok, message = pcall(run)
    if not ok then
      fail('claude.lua: ' .. tostring(message))
    end
    finish()
  end,
})
