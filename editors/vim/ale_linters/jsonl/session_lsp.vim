" session-lsp for Vim 8.2+/9 (and Neovim) through ALE: diagnostics (signs, location list), :ALEHover,
" :ALEGoToDefinition, :ALECodeAction, for the JSON Lines
" session files of Elyra (pi) and thndrs. ALE loads this file itself for 'jsonl' buffers once this folder is on
" 'runtimepath' (see editors/README or the project README). Options:
"   let g:ale_session_lsp_executable = '/path/to/session-lsp'     (default: session-lsp on PATH)
"   let g:ale_session_lsp_config = {'sessionLsp': {'ignore': ['ELY034'], 'severity': {'ELY046': 'hint'}, 'piVersion': '0.73'}}

call ale#Set('session_lsp_executable', 'session-lsp')
call ale#Set('session_lsp_config', {'sessionLsp': {'select': [], 'ignore': [], 'severity': {}, 'piVersion': '1.6'}})

" ALE needs a project root for an LSP linter: the enclosing git checkout, else the file's folder (session files
" usually live outside any project, under ~/.pi/agent/sessions/).
function! ale_linters#jsonl#session_lsp#ProjectRoot(buffer) abort
    let l:git = ale#path#FindNearestDirectory(a:buffer, '.git')

    return !empty(l:git) ? fnamemodify(l:git, ':h:h') : expand('#' . a:buffer . ':p:h')
endfunction

call ale#linter#Define('jsonl', {
\   'name': 'session_lsp',
\   'lsp': 'stdio',
\   'executable': {buffer -> ale#Var(buffer, 'session_lsp_executable')},
\   'command': '%e serve --stdio',
\   'project_root': function('ale_linters#jsonl#session_lsp#ProjectRoot'),
\   'lsp_config': {buffer -> ale#Var(buffer, 'session_lsp_config')},
\})
