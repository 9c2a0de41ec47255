package testenv

import (
	"bytes"
	"sync"
)

// A LogBuffer is a log sink safe for concurrent writers, so that a test can
// read what controllers logged (for example, that no secret value is in it).
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
