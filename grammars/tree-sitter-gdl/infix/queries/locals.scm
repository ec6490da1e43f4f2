; Variables are scoped to the rule or fact they occur in. Their occurrences in the rule's head count
; as definitions (nested up to three argument lists, e.g. M in legal(P,mark(M,N))); every occurrence
; is a reference.

(rule) @local.scope

(fact) @local.scope

(rule
  head: (atom
    arguments: (arguments
      (variable) @local.definition)))

(rule
  head: (atom
    arguments: (arguments
      (compound
        arguments: (arguments
          (variable) @local.definition)))))

(rule
  head: (atom
    arguments: (arguments
      (compound
        arguments: (arguments
          (compound
            arguments: (arguments
              (variable) @local.definition)))))))

(variable) @local.reference
