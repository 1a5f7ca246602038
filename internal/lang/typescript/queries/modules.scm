; Imports and exports: ES module statements, CommonJS require calls and
; assignments to module.exports / exports.x. Every pattern is one node:
; shapes.go reads the children (require('x') and import('x') among the
; calls, assignments to a member), which keeps compiling the query cheap.

(import_statement) @import
(export_statement) @export
(call_expression) @call
(assignment_expression) @assign
