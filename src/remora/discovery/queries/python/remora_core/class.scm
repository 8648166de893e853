; Classes. A decorated class is captured twice (the decorated_definition and
; the inner class_definition share the name node); discovery keeps the outer
; one, so the node's text starts at the first decorator.
[
  (class_definition
    name: (identifier) @class.name)
  (decorated_definition
    definition: (class_definition
      name: (identifier) @class.name))
] @class.def
