; Variables are scoped to the rule (or top-level form) they occur in. Their occurrences in the rule's
; head count as definitions (nested up to three levels, e.g. ?m in (legal ?p (mark ?m ?n))); every
; occurrence is a reference.

(rule) @local.scope

(source_file
  (list) @local.scope)

(rule
  head: (variable) @local.definition)

(rule
  head: (list
    (variable) @local.definition))

(rule
  head: (list
    (list
      (variable) @local.definition)))

(rule
  head: (list
    (list
      (list
        (variable) @local.definition))))

(variable) @local.reference
