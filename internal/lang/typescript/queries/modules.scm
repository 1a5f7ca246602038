; Imports and exports: ES module statements, CommonJS require calls and
; assignments to module.exports / exports.x.

(import_statement) @import
(export_statement) @export

(call_expression
  function: (identifier) @require.fn
  arguments: (arguments . (string) @require.path .)
  (#eq? @require.fn "require")) @require

(call_expression
  function: (import)
  arguments: (arguments . (string) @require.path .)) @dynamic

(assignment_expression
  left: (member_expression) @assign.target
  right: (_) @assign.value) @assign
