" JSON Lines: Neovim 0.10+ and Vim 9.1 know *.jsonl already; older ones do not.
autocmd BufRead,BufNewFile *.jsonl setfiletype jsonl
