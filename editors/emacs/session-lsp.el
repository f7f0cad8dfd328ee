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
;; Rules, and the pi release whose behaviour messages state (`:piVersion', "1.6" by default, or "0.73"), are
;; chosen with the server's `sessionLsp' settings section, e.g.
;;
;;   (setq-default eglot-workspace-configuration
;;                 '(:sessionLsp (:ignore ["ELY034"] :severity (:ELY046 "hint") :piVersion "0.73")))
;;
;; `session-lsp-tree' shows the conversation tree and `session-lsp-context' what the agent would send to the model
;; from the entry at point.

;;; Code:

(require 'cl-lib)
(require 'seq)
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

;; Payload values as Eglot decodes them: objects are plists, arrays vectors, null nil, false :json-false.
(defun session-lsp--value (value) (unless (eq value :json-false) value))

(defun session-lsp--title (node)
  (let ((text (string-trim (replace-regexp-in-string "[ \t\n]+" " " (or (plist-get node :title) "")))))
    (if (string-empty-p text)
        (or (session-lsp--value (plist-get node :role)) (session-lsp--value (plist-get node :type)) "entry")
      text)))

(defun session-lsp--turn-lines (nodes)
  "Lines for thndrs NODES: each turn, its records indented below it."
  (let (lines)
    (dolist (node nodes)
      (let ((turn (equal (plist-get node :kind) "turn")))
        (push (cons (concat (if turn "▸ " "  ") (session-lsp--title node)
                            (if (and turn (eq (plist-get node :settled) :json-false)) "  (not settled)" ""))
                    (plist-get node :line))
              lines)
        (seq-doseq (record (or (plist-get node :records) []))
          (push (cons (concat "    " (session-lsp--title record)) (plist-get record :line)) lines))))
    (nreverse lines)))

(defun session-lsp--tree-lines (tree)
  "Lines (TEXT . TARGET-LINE) for TREE, the result of sessionLsp/tree. Elyra: linear runs flat, one indent per
branch point, the active branch first (the server's order)."
  (let* ((nodes (append (plist-get tree :nodes) nil))
         (by-line (make-hash-table))
         (active (make-hash-table))
         (seen (make-hash-table))
         (leaf (session-lsp--value (plist-get tree :leaf)))
         lines)
    (if (and nodes (plist-get (car nodes) :kind))
        (session-lsp--turn-lines nodes)
      (dolist (node nodes) (puthash (plist-get node :line) node by-line))
      (seq-doseq (line (or (plist-get tree :active_path) [])) (puthash line t active))
      (cl-labels
          ((children (node)
             (delq nil (mapcar (lambda (line) (and (not (eql line (plist-get node :line))) (gethash line by-line)))
                               (plist-get node :children))))
           (lay-out (starts depth0)
             (let ((stack (mapcar (lambda (node) (cons node depth0)) starts)))
               (while stack
                 (let* ((item (pop stack)) (node (car item)) (depth (cdr item)))
                   (while (and node (not (gethash (plist-get node :line) seen)))
                     (let* ((line (plist-get node :line))
                            (next (children node))
                            (label (session-lsp--value (plist-get node :label))))
                       (puthash line t seen)
                       (push (cons (concat (make-string (* 2 depth) ?\s)
                                           (if (gethash line active) "● " "○ ")
                                           (session-lsp--title node)
                                           (if (and (stringp label) (not (string-empty-p label)))
                                               (format "  [%s]" label) "")
                                           (if (cdr next) (format "  (%d branches)" (length next)) "")
                                           (if (eql line leaf) "  <- active leaf" ""))
                                   line)
                             lines)
                       (if (and next (null (cdr next)))
                           (setq node (car next))
                         (setq stack (append (mapcar (lambda (child) (cons child (1+ depth))) next) stack))
                         (setq node nil)))))))))
        (let ((roots (delq nil (mapcar (lambda (line) (gethash line by-line)) (plist-get tree :roots)))))
          (lay-out roots (if (cdr roots) 1 0))
          (let ((unreached (cl-remove-if (lambda (node) (gethash (plist-get node :line) seen)) nodes)))
            (when unreached
              (push (cons "on a parentId loop (no root leads here):" nil) lines)
              (lay-out unreached 1)))))
      (nreverse lines))))

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
                       (cons (cons (format "%s, %s entries   (● on the active path, RET goes to the entry)"
                                           (or (plist-get tree :label) (plist-get tree :format) "session")
                                           (or (plist-get tree :entry_count) (length (plist-get tree :nodes))))
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
     (cons (cons (concat (format "Model context from line %d: %d messages" (1+ line) (length messages))
                         (let ((refused (plist-get context :refused)))
                           (if (stringp refused)
                               (format "\nThe agent refuses to resume this file: %s. Nothing is sent." refused)
                             "")))
                 nil)
           (mapcar (lambda (message)
                     (setq index (1+ index))
                     (let ((note (plist-get message :note)))
                       (cons (format "── %d. %s%s%s ──\n%s" index (plist-get message :role)
                                     (if (numberp (plist-get message :line))
                                         (format " (line %d)" (1+ (plist-get message :line))) "")
                                     (if (and (stringp note) (not (string-empty-p note))) (format " [%s]" note) "")
                                     (plist-get message :text))
                             (session-lsp--value (plist-get message :line)))))
                   messages))
     (current-buffer))))

(provide 'session-lsp)
;;; session-lsp.el ends here
