package cli

import "os"

// writable reports why dir is not writable by this process, nil when it
// is. Windows has no access(2) that answers for ACLs: create a file there
// and remove it.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".gitnexus-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
