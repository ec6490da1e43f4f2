; Rules and multi-line forms fold (editors only fold ranges that span lines).
[
  (rule)
  (list)
] @fold

(comment) @fold
