-- Commands for session-lsp's custom requests. Starting the server is up to the user:
-- vim.lsp.enable('session_lsp') on 0.11+, require('session_lsp').setup() on 0.7-0.10.
if vim.g.loaded_session_lsp or vim.fn.has('nvim-0.7') ~= 1 then
  return
end
vim.g.loaded_session_lsp = true

-- gd, K, completion and virtual text for session buffers (see buffer_defaults in lua/session_lsp/init.lua).
if vim.fn.has('nvim-0.8') == 1 then
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('session_lsp_buffer_defaults', { clear = true }),
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == 'session_lsp' then
        require('session_lsp').buffer_defaults(client, args.buf)
      end
    end,
  })
end

vim.api.nvim_create_user_command('SessionTree', function(args)
  require('session_lsp').show_tree(args.args == 'loclist')
end, {
  nargs = '?',
  complete = function()
    return { 'loclist' }
  end,
  desc = 'session-lsp: show the conversation tree (scratch buffer, or the location list with "loclist")',
})
vim.api.nvim_create_user_command('SessionContext', function()
  require('session_lsp').show_context()
end, { desc = 'session-lsp: what the agent sends to the model from the entry under the cursor' })
vim.api.nvim_create_user_command('SessionLeaf', function()
  require('session_lsp').goto_leaf()
end, { desc = 'session-lsp: go to the active leaf (the entry the agent resumes from)' })
