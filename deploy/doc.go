// Package deploy holds the files that deploy GitNexus for a team
// (docker-compose.yml, docs/team.md); it has no code, and its test checks
// the Compose file without a Docker engine.
package deploy
