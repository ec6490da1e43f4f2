; Ludi GDL indentation (nvim-treesitter style captures).
;
; The children of a list are indented one level; a line that starts with the
; closing parenthesis goes back to the level of the list's opening line, as in
; the paper's layout:
;
;   (board
;     (tiling square)
;     (size 3 3)
;   )

(list) @indent.begin

(list
  ")" @indent.branch @indent.end)

; Text inside a multi-line string is left as it is.
(string) @indent.ignore

(comment) @indent.auto
