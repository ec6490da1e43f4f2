; Statements that run over several lines, and multi-line brackets.
[
  (statement)
  (definition)
  (code_statement)
  (assert_statement)
  (list)
  (tuple)
  (group)
  (arguments)
] @fold
