-- Run as: nvim --headless -u check.lua <session file>   (Neovim 0.7 and newer; any format, .jsonl or .jsonl.zst)
-- Loads editors/neovim exactly as a user would (0.11+: vim.lsp.enable, older: setup()), opens the session, and
-- writes what the editor saw to $SESSION_LSP_RESULT as JSON: the diagnostics (and how long after start they came),
-- the hover and definition at the probe's position, the symbols, the folds, the code actions on `action_line`,
-- :SessionTree (and <CR> on `jump_line`) and :SessionLeaf. The probe ($SESSION_LSP_PROBE, from a test's case)
-- says where to look and which optional parts to run: `missing_cmd`, `thndrs` (a second file) and
-- `buffer_defaults` (the keys a user types). Assertions live in the tests (tests/editors/cases.py and others).
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

-- A missing command must give one clear message and no client.
if probe.missing_cmd then
  local missing = require('session_lsp').setup({ cmd = { '/nonexistent/session-lsp', 'serve', '--stdio' } })
  result.missing_cmd = { returned = missing, messages = vim.deepcopy(result.messages) }
  result.messages = {}
end

if vim.fn.has('nvim-0.11') == 1 then
  vim.lsp.enable('session_lsp')
  result.setup = 'vim.lsp.enable'
else
  result.setup = require('session_lsp').setup() and 'setup()' or 'setup() refused'
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

local function text_of(contents)
  if type(contents) == 'string' then
    return contents
  end
  if contents.value then
    return contents.value
  end
  local parts = {}
  for _, part in ipairs(contents) do
    table.insert(parts, text_of(part))
  end
  return table.concat(parts, '\n')
end

local function names(symbols, into, depth)
  for _, symbol in ipairs(symbols or {}) do
    table.insert(into, { name = symbol.name, depth = depth, line = (symbol.selectionRange or symbol.location.range).start.line })
    names(symbol.children, into, depth + 1)
  end
  return into
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
  result.filetype = vim.bo[bufnr].filetype
  result.first_line = vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] or vim.NIL
  local client
  if not vim.wait(10000, function()
    client = require('session_lsp').client(bufnr)
    return client ~= nil and client.initialized ~= false
  end, 50) then
    local log = io.open((vim.lsp.log and vim.lsp.log.get_filename or vim.lsp.get_log_path)(), 'r')
    local text = log and log:read('*a') or ''
    fail('no session_lsp client attached (filetype ' .. result.filetype .. '); lsp.log ends: ' .. text:sub(-1500))
    return
  end
  result.client = client.name
  result.offset_encoding = client.offset_encoding

  local diagnostics = {}
  vim.wait(10000, function()
    diagnostics = vim.diagnostic.get(bufnr)
    return #diagnostics > 0
  end, 20)
  result.diagnostics_ms = (vim.loop.hrtime() - opened) / 1e6
  result.diagnostics = {}
  for _, d in ipairs(diagnostics) do
    table.insert(result.diagnostics, { line = d.lnum, code = code_of(d), severity = d.severity, message = d.message })
  end

  local uri = vim.uri_from_bufnr(bufnr)
  local at = { textDocument = { uri = uri }, position = { line = probe.hover[1], character = probe.hover[2] } }
  local hover = request(bufnr, 'textDocument/hover', at)
  result.hover = hover and text_of(hover.contents) or vim.NIL

  local definition = request(bufnr, 'textDocument/definition', at)
  result.definition = {}
  if definition then
    if definition.uri or definition.targetUri then
      definition = { definition }
    end
    for _, location in ipairs(definition) do
      table.insert(result.definition, (location.range or location.targetSelectionRange).start.line)
    end
  end

  result.symbols = names(request(bufnr, 'textDocument/documentSymbol', { textDocument = { uri = uri } }), {}, 0)

  result.folds = {}
  for _, fold in ipairs(request(bufnr, 'textDocument/foldingRange', { textDocument = { uri = uri } }) or {}) do
    table.insert(result.folds, { fold.startLine, fold.endLine })
  end

  -- A code action for the diagnostics on one line, sent back as the client received them.
  local action_line = probe.action_line or 0
  local line_diagnostics = {}
  for _, d in ipairs(diagnostics) do
    if d.lnum == action_line then
      local lsp = d.user_data and d.user_data.lsp or {}
      table.insert(line_diagnostics, {
        range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col } },
        severity = d.severity,
        message = d.message,
        code = code_of(d),
        source = d.source,
        data = lsp.data,
      })
    end
  end
  local actions = request(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = action_line, character = 0 }, ['end'] = { line = action_line, character = 0 } },
    context = { diagnostics = line_diagnostics },
  })
  result.code_actions = {}
  for _, action in ipairs(actions or {}) do
    table.insert(result.code_actions, { title = action.title, kind = action.kind, has_edit = action.edit ~= nil })
  end

  -- :SessionTree opens a scratch buffer; wait for it.
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
  result.tree_targets = tree_buf and vim.b[tree_buf].session_lsp_targets or vim.NIL
  if tree_buf and probe.jump_line then
    -- <CR> on the entry jumps to its line in the session buffer.
    local win = vim.fn.bufwinid(tree_buf)
    vim.api.nvim_set_current_win(win)
    for index, target in pairs(result.tree_targets) do
      if target ~= vim.NIL and target == probe.jump_line then
        vim.api.nvim_win_set_cursor(win, { index, 0 })
        break
      end
    end
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
    result.jumped = { buffer = vim.api.nvim_get_current_buf() == bufnr, line = vim.api.nvim_win_get_cursor(0)[1] - 1 }
  end

  result.notifications = result.messages
  result.messages = {}

  -- :SessionLeaf from the first line: the cursor goes to the active leaf's line in the session's window (a flat
  -- log has none: it says so).
  vim.api.nvim_set_current_win(vim.fn.bufwinid(bufnr))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('SessionLeaf')
  vim.wait(10000, function()
    return vim.api.nvim_win_get_cursor(0)[1] ~= 1 or #result.messages > 0
  end, 50)
  result.leaf = { buffer = vim.api.nvim_get_current_buf() == bufnr, line = vim.api.nvim_win_get_cursor(0)[1] - 1,
                  messages = result.messages }
  result.messages = {}

  -- A thndrs session has no tree: :SessionLeaf says so (and does not claim the file has no entries).
  if probe.thndrs then
    -- A user's own gd mapping stays: the plugin maps gd only where nothing is mapped.
    vim.keymap.set('n', 'gd', '<Cmd>let g:user_gd = 1<CR>', { desc = 'the user' })
    vim.cmd('edit ' .. vim.fn.fnameescape(probe.thndrs))
    local thndrs = vim.api.nvim_get_current_buf()
    vim.wait(10000, function()
      local c = require('session_lsp').client(thndrs)
      return c ~= nil and c.initialized ~= false
    end, 50)
    vim.cmd('SessionLeaf')
    vim.wait(10000, function()
      return #result.messages > 0
    end, 50)
    result.thndrs_leaf = { messages = result.messages, line = vim.api.nvim_win_get_cursor(0)[1] - 1 }
    result.thndrs_user_gd = vim.fn.maparg('gd', 'n', false, true).desc or vim.NIL
    vim.keymap.del('n', 'gd')
    result.messages = {}
  end
  vim.cmd('buffer ' .. bufnr)
  result.messages = {}
end

local function keys(text, mode)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(text, true, false, true), mode or 'x', false)
end

-- What a user types in the session buffer, with the plugin's buffer defaults: gd, CTRL-] and K on the parentId,
-- the diagnostics' virtual text, and CTRL-X CTRL-O then CTRL-Y on a new line. Keys that wait for the server or
-- the popup menu run from timers, as typed keys would, so insert mode is not left in between.
local function mappings(bufnr, done)
  local mapped = {}
  for _, lhs in ipairs({ 'gd', 'K' }) do
    local map = vim.fn.maparg(lhs, 'n', false, true)
    mapped[lhs] = { buffer = map.buffer == 1, desc = map.desc or vim.NIL }
  end
  result.maps = mapped
  result.omnifunc = vim.bo[bufnr].omnifunc
  result.tagfunc = vim.bo[bufnr].tagfunc
  local at = { probe.hover[1] + 1, probe.hover[2] }
  local function go(lhs)
    vim.api.nvim_win_set_cursor(0, at)
    keys(lhs, 'x')
    vim.wait(5000, function()
      return vim.api.nvim_win_get_cursor(0)[1] ~= at[1]
    end, 50)
    local cursor = vim.api.nvim_win_get_cursor(0)
    local landed = { line = cursor[1] - 1, buffer = vim.api.nvim_get_current_buf() == bufnr }
    vim.cmd('buffer ' .. bufnr)
    return landed
  end
  result.gd = go('gd')
  local ok, err = pcall(go, '<C-]>')
  result.ctrl_bracket = ok and err or { error = tostring(err) }
  vim.api.nvim_win_set_cursor(0, at)
  keys('K', 'x')
  result.hover_float = vim.NIL
  vim.wait(5000, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        result.hover_float = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
        return true
      end
    end
    return false
  end, 50)
  keys('<Esc>', 'x')

  result.virtual_text = {}
  -- 0.7 has no "every namespace" (-1) for extmarks, and draws virtual text in anonymous namespaces.
  for ns = 1, 200 do
    local ok, marks = pcall(vim.api.nvim_buf_get_extmarks, bufnr, ns, 0, -1, { details = true })
    for _, mark in ipairs(ok and marks or {}) do
      local chunks = mark[4].virt_text
      if chunks then
        local text = {}
        for _, chunk in ipairs(chunks) do
          table.insert(text, chunk[1])
        end
        table.insert(result.virtual_text, { line = mark[2], text = table.concat(text) })
      end
    end
  end

  -- Completion on a new empty line: the first item is a whole entry (a snippet); accepting it must leave JSON.
  local last = vim.api.nvim_buf_line_count(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, last, last, false, { '' })
  vim.api.nvim_win_set_cursor(0, { last + 1, 0 })
  keys('A<C-x><C-o>', 'nt')
  local started = vim.loop.now()
  local function poll()
    if vim.fn.pumvisible() == 1 then
      local info = vim.fn.complete_info({ 'items', 'selected' })
      result.completion_items = {}
      for index, item in ipairs(info.items) do
        if index <= 5 then
          table.insert(result.completion_items, item.word)
        end
      end
      keys('<C-n><C-p>', 'nt') -- make sure the first item is selected (completeopt may have noselect)
      vim.defer_fn(function()
        if vim.fn.complete_info({ 'selected' }).selected < 0 then
          keys('<C-n>', 'nt')
        end
        vim.defer_fn(function()
          keys('<C-y>', 'nt')
          vim.defer_fn(function()
            keys('<Esc>', 'nt')
            vim.defer_fn(function()
              result.completed_line = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1]
              done()
            end, 300)
          end, 500)
        end, 200)
      end, 200)
    elseif vim.loop.now() - started > 10000 then
      result.completed_line = vim.NIL
      result.completion_mode = vim.fn.mode()
      keys('<Esc>', 'nt')
      vim.defer_fn(done, 100)
    else
      vim.defer_fn(poll, 50)
    end
  end
  vim.defer_fn(poll, 50)
end

vim.api.nvim_create_autocmd('VimEnter', {
  nested = true, -- so that :edit in run() fires BufRead and FileType, as it does for a user
  callback = function()
    local ok, message = pcall(run)
    if not ok then
      fail('check.lua: ' .. tostring(message))
      return finish()
    end
    if not probe.buffer_defaults then
      return finish()
    end
    vim.defer_fn(finish, 40000) -- whatever happens below
    local bufnr = vim.fn.bufnr(vim.fn.argv(0))
    ok, message = pcall(mappings, bufnr, function()
      result.mapping_notifications = result.messages
      finish()
    end)
    if not ok then
      fail('check.lua: ' .. tostring(message))
      finish()
    end
  end,
})
