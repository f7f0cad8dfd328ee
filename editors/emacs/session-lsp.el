;;; session-lsp.el --- Eglot setup for session-lsp (Elyra/pi and thndrs session files)  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (eglot "1.9"))
;; Keywords: languages, tools
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Diagnostics, hover, go to definition, imenu and quick fixes for the JSON Lines session files of the Elyra (pi)
;; and thndrs coding agents, through Eglot (built into Emacs 29; `elpa-eglot' or ELPA for Emacs 27-28).
;;
;;   (add-to-list 'load-path "/path/to/session-lsp/editors/emacs")
;;   (require 'session-lsp)
;;   (add-hook 'jsonl-mode-hook #'eglot-ensure)
;;
;; Rules are chosen with the server's `sessionLsp' settings section, e.g.
;;
;;   (setq-default eglot-workspace-configuration
;;                 '(:sessionLsp (:ignore ["ELY034"] :severity (:ELY046 "hint"))))
;;
;; `session-lsp-tree' shows the conversation tree and `session-lsp-context' what the agent would send to the model
;; from the entry at point.

;;; Code:

(require 'eglot)
(require 'jsonrpc)
(require 'js)

(defgroup session-lsp nil
  "The session-lsp language server for coding-agent session files."
  :group 'tools
  :prefix "session-lsp-")

(defcustom session-lsp-command '("session-lsp" "serve" "--stdio")
  "Command that starts the server. Set it before loading this file, or re-run `session-lsp-register'."
  :type '(repeat string))

(unless (fboundp 'jsonl-mode)
  (define-derived-mode jsonl-mode js-mode "JSONL"
    "Major mode for JSON Lines files: one JSON value per line."
    (setq-local truncate-lines t)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.jsonl\\'" . jsonl-mode))

(defun session-lsp-register ()
  "Tell Eglot to start `session-lsp-command' for `jsonl-mode' buffers (language id \"jsonl\")."
  (setq eglot-server-programs (cl-remove 'jsonl-mode eglot-server-programs :key #'car))
  (push (cons 'jsonl-mode session-lsp-command) eglot-server-programs))

(session-lsp-register)

(defun session-lsp--request (method params)
  "Send METHOD with PARAMS to this buffer's Eglot server and return the result."
  (jsonrpc-request (eglot--current-server-or-lose) method params))

(defun session-lsp--document ()
  (list :uri (eglot--path-to-uri (buffer-file-name))))

(defun session-lsp--title (node)
  (let ((kind (or (plist-get node :role) (plist-get node :type) "entry"))
        (text (string-trim (replace-regexp-in-string "[ \t\n]+" " " (or (plist-get node :text) "")))))
    (if (string-empty-p text) kind (format "%s: %s" kind text))))

(defun session-lsp--tree-lines (tree)
  "Lines (TEXT . TARGET-LINE) for TREE, the result of sessionLsp/tree: chains flat, nested at branch points."
  (let* ((nodes (append (plist-get tree :nodes) nil))
         (by-line (make-hash-table))
         (children (make-hash-table))
         (leaf (plist-get (plist-get tree :leaf) :line))
         (active (make-hash-table))
         roots lines stack)
    (dolist (node nodes) (puthash (plist-get node :line) node by-line))
    (dolist (node (reverse nodes))
      (let ((parent (plist-get node :parent)))
        (if (and parent (gethash parent by-line) (not (eql parent (plist-get node :line))))
            (push node (gethash parent children))
          (push node roots))))
    (let ((line leaf))
      (while (and line (not (gethash line active)))
        (puthash line t active)
        (setq line (plist-get (gethash line by-line) :parent))))
    (let ((depth (if (cdr roots) 1 0)))
      (dolist (root (reverse roots)) (push (cons root depth) stack)))
    (while stack
      (let* ((item (pop stack)) (node (car item)) (depth (cdr item)) (seen (make-hash-table)))
        (while node
          (let* ((line (plist-get node :line))
                 (next (gethash line children))
                 (label (plist-get node :label)))
            (puthash line t seen)
            (push (cons (format "%s%s %s%s%s%s"
                                (make-string (* 2 depth) ?\s)
                                (if (gethash line active) "●" "○")
                                (session-lsp--title node)
                                (if (and label (stringp label)) (format "  [%s]" label) "")
                                (if (cdr next) (format "  (%d branches)" (length next)) "")
                                (if (eql line leaf) "  <- active leaf" ""))
                        line)
                  lines)
            (cond ((and next (null (cdr next)) (not (gethash (plist-get (car next) :line) seen)))
                   (setq node (car next)))
                  (t (dolist (child (reverse next)) (push (cons child (1+ depth)) stack))
                     (setq node nil)))))))
    (nreverse lines)))

(defun session-lsp--show (name lines source)
  "Show LINES ((TEXT . TARGET) ...) in buffer NAME; RET jumps to TARGET's line in SOURCE."
  (with-current-buffer (get-buffer-create name)
    (let ((inhibit-read-only t))
      (erase-buffer)
      (dolist (line lines)
        (insert (propertize (car line) 'session-lsp-target (cdr line)) "\n")))
    (goto-char (point-min))
    (special-mode)
    (setq-local session-lsp--source source)
    (local-set-key (kbd "RET") #'session-lsp-visit)
    (display-buffer (current-buffer))
    (current-buffer)))

(defvar-local session-lsp--source nil "The session buffer a tree or context buffer was made from.")

(defun session-lsp-visit ()
  "Go to the session entry on this line of a tree buffer."
  (interactive)
  (let ((target (get-text-property (line-beginning-position) 'session-lsp-target))
        (source session-lsp--source))
    (when (and target (buffer-live-p source))
      (pop-to-buffer source)
      (goto-char (point-min))
      (forward-line target))))

;;;###autoload
(defun session-lsp-tree ()
  "Show the conversation tree of this session (sessionLsp/tree)."
  (interactive)
  (let* ((tree (session-lsp--request :sessionLsp/tree (list :textDocument (session-lsp--document)))))
    (session-lsp--show (format "*session tree: %s*" (buffer-name))
                       (cons (cons (format "%s, %s entries" (or (plist-get tree :format) "session")
                                           (or (plist-get tree :entries) (length (plist-get tree :nodes))))
                                   nil)
                             (session-lsp--tree-lines tree))
                       (current-buffer))))

;;;###autoload
(defun session-lsp-context ()
  "Show what the agent would send to the model from the entry at point (sessionLsp/context)."
  (interactive)
  (let* ((line (1- (line-number-at-pos)))
         (context (session-lsp--request :sessionLsp/context
                                        (list :textDocument (session-lsp--document)
                                              :position (list :line line :character 0))))
         (messages (append (plist-get context :messages) nil))
         (index 0))
    (session-lsp--show
     (format "*session context: %s:%d*" (buffer-name) (1+ line))
     (cons (cons (format "Model context from line %d: %d messages" (1+ line) (length messages)) nil)
           (mapcar (lambda (message)
                     (setq index (1+ index))
                     (cons (format "── %d. %s ──\n%s" index (plist-get message :role) (plist-get message :text))
                           (plist-get message :line)))
                   messages))
     (current-buffer))))

(provide 'session-lsp)
;;; session-lsp.el ends here
