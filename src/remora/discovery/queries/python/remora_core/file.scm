; One node per source file. The range is always the whole file.
(module) @file.def
