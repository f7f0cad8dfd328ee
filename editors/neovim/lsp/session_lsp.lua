-- session-lsp for Neovim 0.11+: put this folder's parent on 'runtimepath' (or copy this file to
-- ~/.config/nvim/lsp/session_lsp.lua) and call
--
--     vim.lsp.enable('session_lsp')
--
-- Override any field with vim.lsp.config('session_lsp', { ... }), e.g.
--     vim.lsp.config('session_lsp', { settings = { sessionLsp = { ignore = { 'ELY04' } } } })
--     vim.lsp.config('session_lsp', { cmd = { '/path/to/venv/bin/session-lsp', 'serve', '--stdio' } })
return {
  cmd = { 'session-lsp', 'serve', '--stdio' },
  filetypes = { 'jsonl' },
  -- Session files live outside projects (~/.pi/agent/sessions/...): any folder is fine, one server serves all.
  root_markers = { '.git' },
  workspace_required = false,
  settings = {
    sessionLsp = {
      select = {}, -- rule codes, prefixes or names to report ({} = all), e.g. { 'ELY', 'THN02' }
      ignore = {}, -- rules not to report, e.g. { 'ELY034', 'hint-level-rule-name' }
      severity = vim.empty_dict(), -- overrides, e.g. { ELY046 = 'hint', THN03 = 'off' }
      piVersion = '1.6', -- the pi release whose behaviour messages state: '1.6' (current) or '0.73'
    },
  },
}
