package ingest

import "time"

// Reading every file again to hash it took a fifth of the parse phase of a
// re-index of the Go standard library (90 MB of Go in 7,700 files), the
// rest being the cached facts decoded. The extraction cache keeps, with
// each file's facts, the file's signature when its content was read
// (fileSig): a file whose signature is the same is taken to hold the same
// content, and is not read. As git does with its index, a signature is
// kept only for a file last changed well before it was read: a file
// written again in the same tick of the file system's clock as the read
// would keep its times, and the cache would keep the content read before.

// fileSig is what the file system says of a file that changes whenever its
// content does; the zero value is no signature.
type fileSig struct {
	size, mtime, ctime int64
	ino                uint64
}

// racyWindow is how long before a read a file must have last changed for
// its signature to be kept: coarser than any file system's clock (FAT's is
// two seconds).
const racyWindow = 3 * time.Second

// settled returns s when the file last changed racyWindow or more before
// start (when the run began reading files), else no signature.
func (s fileSig) settled(start time.Time) fileSig {
	limit := start.Add(-racyWindow).UnixNano()
	if s.mtime >= limit || s.ctime >= limit {
		return fileSig{}
	}
	return s
}
