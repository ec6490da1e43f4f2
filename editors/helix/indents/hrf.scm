; Helix indentation for GDL in infix form: the lines after a rule's first line (its body) are
; indented one level, and so are the lines inside parentheses.
[
  (rule)
  (group)
  (arguments)
] @indent

")" @outdent
