; Helix indentation for EGGG. A statement continues on the following lines only while they are
; indented, so the lines after a statement's first line are indented one level, and brackets
; open one more.
[
  (statement)
  (definition)
  (code_statement)
  (assert_statement)
  (like_statement)
  (list)
  (tuple)
  (group)
  (arguments)
] @indent

[
  "]"
  ")"
] @outdent
