-- session-lsp for Neovim 0.7+.
--
-- 0.11+:    vim.lsp.enable('session_lsp')             (uses lsp/session_lsp.lua from this plugin)
-- 0.7-0.10: require('session_lsp').setup({ ... })     (vim.lsp.start on 0.8+, start_client on 0.7)
--
-- Either way the commands :SessionTree, :SessionContext and :SessionLeaf (plugin/session_lsp.lua) talk to the
-- server's custom requests.
local M = {}

M.name = 'session_lsp'
M.minimum = '0.7'

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function notify(message, level)
  vim.notify('session-lsp: ' .. message, level or vim.log.levels.ERROR)
end

--- The default configuration (the same table as lsp/session_lsp.lua).
function M.default_config()
  return {
    name = M.name,
    cmd = { 'session-lsp', 'serve', '--stdio' },
    filetypes = { 'jsonl' },
    root_markers = { '.git' },
    settings = { sessionLsp = { select = {}, ignore = {}, severity = vim.empty_dict(), piVersion = '1.6' } },
  }
end

local function root_dir(bufnr, markers)
  local file = vim.api.nvim_buf_get_name(bufnr)
  local start = file ~= '' and vim.fn.fnamemodify(file, ':p:h') or vim.fn.getcwd()
  local found = vim.fn.finddir(markers[1], start .. ';')
  if found ~= '' then
    return vim.fn.fnamemodify(found, ':p:h:h')
  end
  return start
end

local clients_07 = {}

--- Start (or reuse) the server for one buffer with `config`.
local function attach(bufnr, config)
  local lsp_config = {
    name = config.name,
    cmd = config.cmd,
    root_dir = root_dir(bufnr, config.root_markers),
    settings = config.settings,
    on_attach = config.on_attach,
    capabilities = config.capabilities,
    init_options = config.init_options,
  }
  if vim.lsp.start then
    return vim.lsp.start(lsp_config, { bufnr = bufnr })
  end
  -- 0.7: no vim.lsp.start. One client per root, attached buffer by buffer.
  local id = clients_07[lsp_config.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    lsp_config.workspace_folders = { { uri = vim.uri_from_fname(lsp_config.root_dir), name = lsp_config.root_dir } }
    id = vim.lsp.start_client(lsp_config)
    if not id then
      return nil
    end
    clients_07[lsp_config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- What a session buffer needs that this Neovim does not give an LSP buffer by itself, set when the server
--- attaches: buffer-local, and never over a mapping or option that is already set.
---   gd         LSP definition (the entry an id names); Neovim's gd searches the text instead (CTRL-] works too)
---   K          LSP hover, before 0.10 (0.10+ maps it itself)
---   'omnifunc', 'tagfunc'   vim.lsp's, on 0.7 (0.8+ set them itself), for CTRL-X CTRL-O and CTRL-]
---   0.11+: vim.lsp.completion on the buffer, so an accepted item (CTRL-Y) expands its snippet (the whole entry
---          line) instead of leaving the item's label; and virtual text for this server's diagnostics (0.11
---          turned it off by default), unless diagnostics are configured with virtual_text or virtual_lines.
--- vim.g.session_lsp_mappings = false skips the mappings and the options; vim.g.session_lsp_virtual_text = false
--- the virtual text.
function M.buffer_defaults(client, bufnr)
  if vim.g.session_lsp_mappings ~= false then
    local function map(lhs, rhs, desc)
      if vim.fn.maparg(lhs, 'n') == '' then
        vim.keymap.set('n', lhs, rhs, { buffer = bufnr, desc = 'session-lsp: ' .. desc })
      end
    end
    map('gd', vim.lsp.buf.definition, 'go to the entry this id names (LSP definition)')
    if not has('0.10') then
      map('K', vim.lsp.buf.hover, 'hover card (LSP hover)')
    end
    if vim.bo[bufnr].omnifunc == '' then
      vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
    end
    if vim.bo[bufnr].tagfunc == '' then
      vim.bo[bufnr].tagfunc = 'v:lua.vim.lsp.tagfunc'
    end
  end
  if not has('0.11') then
    return
  end
  vim.lsp.completion.enable(true, client.id, bufnr)
  local global = vim.diagnostic.config() or {}
  if vim.g.session_lsp_virtual_text ~= false and not global.virtual_text and not global.virtual_lines then
    -- Pushed and pulled diagnostics have a namespace each; this configures only this server's.
    for _, pull in ipairs({ false, true }) do
      vim.diagnostic.config({ virtual_text = true }, vim.lsp.diagnostic.get_namespace(client.id, pull))
    end
  end
end

--- Sets the server up. `opts` is merged over default_config(): cmd, settings, filetypes, on_attach, capabilities.
--- Returns true when set up, false (after one message) when this Neovim or the command cannot work.
function M.setup(opts)
  if not has(M.minimum) then
    notify('needs Neovim ' .. M.minimum .. ' or newer (this is ' .. tostring(vim.version and vim.version() or '?') .. ')')
    return false
  end
  local config = vim.tbl_deep_extend('force', M.default_config(), opts or {})
  if not has('0.8') then
    -- 0.7 has no LspAttach event (plugin/session_lsp.lua uses it on 0.8+).
    local on_attach = config.on_attach
    config.on_attach = function(client, bufnr)
      M.buffer_defaults(client, bufnr)
      if on_attach then
        on_attach(client, bufnr)
      end
    end
  end
  if vim.fn.executable(config.cmd[1]) ~= 1 then
    notify(
      string.format(
        "'%s' is not executable. Install the server (pip install session-lsp) or pass cmd = { '/path/to/session-lsp', 'serve', '--stdio' } to setup()",
        config.cmd[1]
      )
    )
    return false
  end
  if has('0.11') then
    local fields = vim.deepcopy(config)
    fields.name = nil
    vim.lsp.config(M.name, fields)
    vim.lsp.enable(M.name)
    return true
  end
  local group = vim.api.nvim_create_augroup('session_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      attach(args.buf, config)
    end,
  })
  -- Buffers that were already open when setup() ran.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype) then
      attach(bufnr, config)
    end
  end
  return true
end

--- The session-lsp client attached to `bufnr` (current buffer by default), or nil.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = M.name })
  elseif has('0.8') then
    clients = vim.lsp.get_active_clients({ bufnr = bufnr, name = M.name })
  else
    clients = vim.tbl_filter(function(client)
      return client.name == M.name
    end, vim.tbl_values(vim.lsp.buf_get_clients(bufnr)))
  end
  return clients[1]
end

--- Sends `method` to the session-lsp client of `bufnr`; `callback(result)` runs on success.
function M.request(bufnr, method, params, callback)
  local client = M.client(bufnr)
  if not client then
    notify('no session-lsp server is attached to this buffer (is it a *.jsonl file, and is the server installed?)')
    return
  end
  local function handler(err, result)
    if err then
      notify(method .. ' failed: ' .. (err.message or vim.inspect(err)))
    else
      callback(result)
    end
  end
  if has('0.11') then
    client:request(method, params, handler, bufnr)
  else
    client.request(method, params, handler, bufnr)
  end
end

local function scratch(name, lines, filetype)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  return buf
end

local function jump(source_buf, line)
  local wins = vim.fn.win_findbuf(source_buf)
  if wins[1] then
    vim.api.nvim_set_current_win(wins[1])
  else
    vim.cmd('wincmd p')
    vim.api.nvim_set_current_buf(source_buf)
  end
  vim.api.nvim_win_set_cursor(0, { line + 1, 0 })
  vim.cmd('normal! zz')
end

--- :SessionTree — the conversation tree of the current session in a scratch buffer; <CR> jumps to the entry.
--- With `loclist` true the entries go to the location list instead.
function M.show_tree(loclist)
  local source = vim.api.nvim_get_current_buf()
  M.request(source, 'sessionLsp/tree', { textDocument = { uri = vim.uri_from_bufnr(source) } }, function(result)
    local rendered = require('session_lsp.tree').render(result or {})
    if loclist then
      local items = {}
      for index, line in ipairs(rendered.targets) do
        if line then
          table.insert(items, { bufnr = source, lnum = line + 1, col = 1, text = vim.trim(rendered.lines[index]) })
        end
      end
      vim.fn.setloclist(0, {}, ' ', { title = rendered.lines[1], items = items })
      vim.cmd('lopen')
      return
    end
    local buf = scratch('session-tree://' .. vim.api.nvim_buf_get_name(source), rendered.lines, 'sessiontree')
    vim.b[buf].session_lsp_targets = rendered.targets
    vim.keymap.set('n', '<CR>', function()
      local target = rendered.targets[vim.api.nvim_win_get_cursor(0)[1]]
      if target then
        jump(source, target)
      end
    end, { buffer = buf, desc = 'Go to this entry' })
  end)
end

--- :SessionContext — what the agent would send to the model from the entry under the cursor.
function M.show_context()
  local source = vim.api.nvim_get_current_buf()
  local cursor = vim.api.nvim_win_get_cursor(0)
  local params = { textDocument = { uri = vim.uri_from_bufnr(source) }, position = { line = cursor[1] - 1, character = 0 } }
  M.request(source, 'sessionLsp/context', params, function(result)
    local lines = require('session_lsp.tree').render_context(result or {}, cursor[1] - 1)
    scratch('session-context://' .. vim.api.nvim_buf_get_name(source) .. ':' .. cursor[1], lines, 'markdown')
  end)
end

--- :SessionLeaf — jump to the entry the agent resumes from. `leaf` in a sessionLsp/tree result is that entry's
--- 0-based line (a number, null when there is none); the tree of a flat log (thndrs, Codex: records in turns) has
--- no `leaf` at all.
function M.goto_leaf()
  local source = vim.api.nvim_get_current_buf()
  M.request(source, 'sessionLsp/tree', { textDocument = { uri = vim.uri_from_bufnr(source) } }, function(result)
    local leaf = type(result) == 'table' and result.leaf or nil
    if type(leaf) == 'number' then
      jump(source, leaf)
    elseif type(result) == 'table' and result.leaf == nil and (tonumber(result.entry_count) or 0) > 0 then
      notify('a ' .. tostring(result.label) .. ' session is a flat log with no active leaf: the agent appends after '
        .. 'its last record', vim.log.levels.INFO)
    else
      notify('this file has no active leaf (it is not a session, or has no entries)', vim.log.levels.INFO)
    end
  end)
end

return M
