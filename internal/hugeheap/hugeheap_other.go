//go:build !linux

package hugeheap

func available() bool { return false }

func advise([]byte) bool { return false }
