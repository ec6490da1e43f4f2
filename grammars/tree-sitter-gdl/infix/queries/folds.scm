; Rules (which may span lines) and parenthesised groups fold.
[
  (rule)
  (group)
  (arguments)
] @fold
