; Functions, async functions and methods. A function whose nearest enclosing
; definition is a class becomes a method; decorated definitions are captured
; with their decorators (the outer capture of the same name wins).
[
  (function_definition
    name: (identifier) @function.name)
  (decorated_definition
    definition: (function_definition
      name: (identifier) @function.name))
] @function.def
