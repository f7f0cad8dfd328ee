" vim -N -u check.vim -i NONE -n -es SESSION.jsonl </dev/null   (any format; a .jsonl.zst too, through the gzip plugin)
" Loads ALE and editors/vim as a user would, opens the session, and writes what Vim saw to $SESSION_LSP_RESULT.
" -es matters: in normal mode with stdin that is not a terminal, :sleep reads EOF and Vim exits 1 silently.
" Hover, definition, symbols and code actions go through ALE's LSP transport (ale#lsp_linter#SendRequest), not its
" UI, which needs a terminal. Assertions live in test_vim.py.
set nocompatible
let s:root = $SESSION_LSP_ROOT
let s:probe = json_decode($SESSION_LSP_PROBE)
let s:result = {'errors': []}
let s:responses = {}

let &runtimepath = s:root . '/editors/vim,' . &runtimepath
packadd ale
let g:ale_lint_on_text_changed = 'never'
let g:ale_echo_cursor = 0
let g:ale_set_signs = 0
filetype plugin on
syntax off

function! s:Wait(Predicate, seconds) abort
    let l:tries = a:seconds * 20
    while !a:Predicate() && l:tries > 0
        sleep 50m
        let l:tries -= 1
    endwhile
    return a:Predicate()
endfunction

function! s:Handler(name, response) abort
    let s:responses[a:name] = a:response
endfunction

function! s:Request(name, message) abort
    call ale#lsp_linter#SendRequest(bufnr(''), 'session_lsp', a:message, function('s:Handler', [a:name]))
    call s:Wait({-> has_key(s:responses, a:name)}, 10)
    let l:response = get(s:responses, a:name, {})
    if has_key(l:response, 'error')
        call add(s:result.errors, a:name . ': ' . string(l:response.error))
    endif
    return get(l:response, 'result', v:null)
endfunction

function! s:Run() abort
    let s:result.version = v:version
    let s:result.filetype = &filetype
    let s:result.first_line = getline(1)
    let s:result.ale_linters = map(ale#linter#Get(&filetype), 'v:val.name')
    ALELint
    call s:Wait({-> !empty(ale#engine#GetLoclist(bufnr('')))}, 15)
    let s:result.diagnostics = map(copy(ale#engine#GetLoclist(bufnr(''))),
    \   {_, item -> {'line': item.lnum - 1, 'code': get(item, 'code', v:null), 'type': item.type, 'message': item.text}})

    let [l:line, l:column] = s:probe.hover
    let l:hover = s:Request('hover', ale#lsp#message#Hover(bufnr(''), l:line + 1, l:column + 1))
    let s:result.hover = type(l:hover) is v:t_dict ? l:hover.contents : v:null
    let l:definition = s:Request('definition', ale#lsp#message#Definition(bufnr(''), l:line + 1, l:column + 1))
    let l:definition = type(l:definition) is v:t_dict ? [l:definition] : (type(l:definition) is v:t_list ? l:definition : [])
    let s:result.definition = map(l:definition, {_, location -> get(location, 'range', get(location, 'targetSelectionRange', {})).start.line})

    let l:uri = ale#util#ToURI(expand('%:p'))
    let l:symbols = s:Request('symbols', [0, 'textDocument/documentSymbol', {'textDocument': {'uri': l:uri}}])
    let s:result.symbols = []
    let l:stack = type(l:symbols) is v:t_list ? reverse(copy(l:symbols)) : []
    while !empty(l:stack)
        let l:symbol = remove(l:stack, -1)
        call add(s:result.symbols, l:symbol.name)
        call extend(l:stack, reverse(copy(get(l:symbol, 'children', []))))
    endwhile

    " The diagnostics on the action line, as the server sent them (ALE keeps only loclist items, so ask again).
    let l:action_line = s:probe.action_line
    let l:diagnostics = []
    for l:item in ale#engine#GetLoclist(bufnr(''))
        if l:item.lnum - 1 == l:action_line
            call add(l:diagnostics, {'range': {'start': {'line': l:item.lnum - 1, 'character': l:item.col - 1},
            \   'end': {'line': l:item.end_lnum - 1, 'character': l:item.end_col}},
            \   'message': l:item.text, 'code': get(l:item, 'code', ''), 'severity': l:item.type is# 'E' ? 1 : 2})
        endif
    endfor
    let l:actions = s:Request('actions', ale#lsp#message#CodeAction(bufnr(''), l:action_line + 1, 1, l:action_line + 1, 0, l:diagnostics))
    let s:result.code_actions = map(type(l:actions) is v:t_list ? l:actions : [],
    \   {_, action -> {'title': action.title, 'kind': get(action, 'kind', ''), 'has_edit': has_key(action, 'edit') ? v:true : v:false}})
endfunction

function! s:Main() abort
    try
        call s:Run()
    catch
        call add(s:result.errors, 'check.vim: ' . v:exception . ' at ' . v:throwpoint)
    endtry
    call writefile([json_encode(s:result)], $SESSION_LSP_RESULT)
    qall!
endfunction

" -u runs before the file is read: do the work once it is.
autocmd VimEnter * call s:Main()
