;;; check.el --- drive Eglot against session-lsp in batch Emacs  -*- lexical-binding: t; -*-
;; emacs -Q --batch -l check.el SESSION.jsonl   (any format; a .jsonl.zst too, through auto-compression-mode)
;; Loads editors/emacs/session-lsp.el as a user would, opens the session, starts Eglot and writes what Emacs saw
;; to $SESSION_LSP_RESULT as JSON. Assertions live in test_emacs.py.

(require 'package)
;; -Q skips Debian's site-start, which is what puts elpa-eglot on the load path.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'json)

(defvar check-root (getenv "SESSION_LSP_ROOT"))
(defvar check-out (getenv "SESSION_LSP_RESULT"))
(defvar check-probe (json-parse-string (getenv "SESSION_LSP_PROBE") :object-type 'plist :array-type 'list))
(defvar check-result nil)
(defvar check-errors nil)

(add-to-list 'load-path (expand-file-name "editors/emacs" check-root))
(require 'session-lsp)
(setq eglot-sync-connect 10
      eglot-connect-timeout 20
      eglot-events-buffer-size 0
      make-backup-files nil
      create-lockfiles nil)

(defun check-put (key value) (setq check-result (plist-put check-result key value)))
(defun check-fail (message) (push message check-errors))

(defun check-wait (predicate seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

(defun check-goto (line column)
  (goto-char (point-min))
  (forward-line line)
  (forward-char column))

(defun check-vector (list) (apply #'vector list))

(defun check-run (file)
  (find-file file)
  (check-put :mode (symbol-name major-mode))
  (check-put :first_line (buffer-substring-no-properties (point-min) (save-excursion (goto-char (point-min))
                                                                                    (line-end-position))))
  (check-put :version emacs-version)
  (check-put :eglot_version (if (fboundp 'eglot--version) (eglot--version)
                              (let ((desc (cadr (assq 'eglot package-alist))))
                                (and desc (package-version-join (package-desc-version desc))))))
  ;; eglot-ensure waits for post-command-hook, which batch mode never runs.
  (apply #'eglot (eglot--guess-contact))
  (unless (check-wait #'eglot-current-server 20)
    (error "no Eglot server for %s" file))
  (let ((server (eglot-current-server)))
    (check-put :server (plist-get (eglot--server-info server) :name)))

  (check-wait (lambda () (flymake-diagnostics)) 15)
  (check-put :diagnostics
             (check-vector
              (mapcar (lambda (diag)
                        (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data diag)))))
                          (list :line (1- (line-number-at-pos (flymake-diagnostic-beg diag)))
                                :code (plist-get lsp :code)
                                :type (symbol-name (flymake-diagnostic-type diag))
                                :message (flymake-diagnostic-text diag))))
                      (flymake-diagnostics))))

  (let ((hover (plist-get check-probe :hover)))
    (check-goto (nth 0 hover) (nth 1 hover)))
  (let* ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams))))
    (check-put :hover (if hover (substring-no-properties
                                 (eglot--hover-info (plist-get hover :contents) (plist-get hover :range)))
                        :null)))
  (let* ((xrefs (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot))))
    (check-put :definition
               (check-vector (mapcar (lambda (xref) (1- (xref-location-line (xref-item-location xref)))) xrefs))))

  (check-put :symbols
             (check-vector
              (let (names)
                (cl-labels ((walk (index)
                              (dolist (item index)
                                (if (imenu--subalist-p item)
                                    (progn (push (car item) names) (walk (cdr item)))
                                  (push (car item) names)))))
                  (walk (eglot-imenu)))
                (nreverse (mapcar #'substring-no-properties names)))))

  (check-goto (plist-get check-probe :action_line) 0)
  (let ((actions (eglot-code-actions (line-beginning-position) (line-end-position))))
    (check-put :code_actions
               (check-vector (mapcar (lambda (action)
                                       (list :title (plist-get action :title) :kind (plist-get action :kind)
                                             :has_edit (if (plist-get action :edit) t :false)))
                                     actions))))

  (session-lsp-tree)
  (let ((tree (get-buffer (format "*session tree: %s*" (file-name-nondirectory file)))))
    (check-put :tree (if tree
                         (with-current-buffer tree
                           (check-vector (split-string (buffer-substring-no-properties (point-min) (point-max))
                                                       "\n" t)))
                       :null))))

(let ((file (car command-line-args-left)))
  (setq command-line-args-left nil)
  (condition-case err
      (check-run file)
    (error (check-fail (format "check.el: %S" err))))
  (check-put :errors (check-vector (nreverse check-errors)))
  (with-temp-file check-out
    (insert (json-serialize check-result :null-object :null :false-object :false)))
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (kill-emacs 0))
