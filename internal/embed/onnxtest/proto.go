package onnxtest

import (
	"encoding/binary"
	"math"
	"sort"
)

// A minimal protocol buffer writer for the ONNX messages a model file
// needs (onnx.proto3: ModelProto, GraphProto, NodeProto, TensorProto,
// ValueInfoProto, AttributeProto). Fields are written in field-number
// order with their wire types: varint (0) and length-delimited (2).

type message []byte

func (m message) varint(field int, v uint64) message {
	m = binary.AppendUvarint(m, uint64(field)<<3)
	return binary.AppendUvarint(m, v)
}

func (m message) bytes(field int, b []byte) message {
	m = binary.AppendUvarint(m, uint64(field)<<3|2)
	m = binary.AppendUvarint(m, uint64(len(b)))
	return append(m, b...)
}

func (m message) str(field int, s string) message { return m.bytes(field, []byte(s)) }

// ONNX enum values used here.
const (
	typeFloat = 1 // TensorProto.FLOAT
	typeInt64 = 7 // TensorProto.INT64

	attrInt  = 2 // AttributeProto.INT
	irVer    = 8
	opsetVer = 13
)

// tensor is an initializer: a name, dims and little-endian raw data.
func tensor(name string, dataType int, dims []int64, raw []byte) message {
	var t message
	for _, d := range dims {
		t = t.varint(1, uint64(d))
	}
	t = t.varint(2, uint64(dataType))
	t = t.str(8, name)
	return t.bytes(9, raw)
}

func floatTensor(name string, dims []int64, data []float32) message {
	raw := make([]byte, 0, 4*len(data))
	for _, f := range data {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
	}
	return tensor(name, typeFloat, dims, raw)
}

func int64Tensor(name string, dims []int64, data []int64) message {
	raw := make([]byte, 0, 8*len(data))
	for _, v := range data {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
	}
	return tensor(name, typeInt64, dims, raw)
}

// node is one operator: inputs, outputs, a name, the op type and integer
// attributes.
func node(op, name string, inputs, outputs []string, intAttrs map[string]int64) message {
	var n message
	for _, in := range inputs {
		n = n.str(1, in)
	}
	for _, out := range outputs {
		n = n.str(2, out)
	}
	n = n.str(3, name)
	n = n.str(4, op)
	keys := make([]string, 0, len(intAttrs))
	for k := range intAttrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := intAttrs[k]
		var a message
		a = a.str(1, k)
		a = a.varint(3, uint64(v))
		a = a.varint(20, attrInt)
		n = n.bytes(5, a)
	}
	return n
}

// valueInfo declares a graph input or output: a tensor of elemType whose
// dimensions are named (symbolic) or fixed.
func valueInfo(name string, elemType int, dims ...any) message {
	var shape message
	for _, d := range dims {
		var dim message
		switch d := d.(type) {
		case string:
			dim = dim.str(2, d)
		case int:
			dim = dim.varint(1, uint64(d))
		}
		shape = shape.bytes(1, dim)
	}
	var tt message
	tt = tt.varint(1, uint64(elemType))
	tt = tt.bytes(2, shape)
	var typ message
	typ = typ.bytes(1, tt)
	var vi message
	vi = vi.str(1, name)
	return vi.bytes(2, typ)
}

// model wraps a graph's parts into a ModelProto.
func model(name string, nodes, initializers, inputs, outputs []message) []byte {
	var g message
	for _, n := range nodes {
		g = g.bytes(1, n)
	}
	g = g.str(2, name)
	for _, t := range initializers {
		g = g.bytes(5, t)
	}
	for _, in := range inputs {
		g = g.bytes(11, in)
	}
	for _, out := range outputs {
		g = g.bytes(12, out)
	}
	var opset message
	opset = opset.str(1, "")
	opset = opset.varint(2, opsetVer)
	var m message
	m = m.varint(1, irVer)
	m = m.str(2, "gitnexus-onnxtest")
	m = m.bytes(7, g)
	return m.bytes(8, opset)
}
