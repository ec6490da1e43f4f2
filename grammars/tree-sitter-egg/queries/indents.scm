; Indentation (nvim-treesitter style). In EGGG a statement continues on the following lines only
; while they are indented, so every line after the first line of a statement is indented one level,
; and brackets open one more level.
[
  (statement)
  (definition)
  (code_statement)
  (assert_statement)
  (like_statement)
] @indent.begin

[
  (list)
  (tuple)
  (group)
  (arguments)
] @indent.begin

[
  "]"
  ")"
] @indent.branch

[
  "]"
  ")"
] @indent.end

; Opaque Perl keeps whatever indentation its author chose.
(code) @indent.auto

(comment) @indent.auto
