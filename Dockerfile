# syntax=docker/dockerfile:1
# gitnexus on Debian 12 with git: `serve` by default, any command as
# arguments. Building and running it, with a repository mounted:
# docs/docker.md. packaging/dockerfile-check.sh (make test) checks this
# file without a Docker engine: the images pinned, what it copies there, the
# build the Makefile's, the command the binary's.

# The build: make build, as on any machine (packaging/build.sh, go build
# with cgo for SQLite and the tree-sitter grammars: several minutes the
# first time; the cache mounts keep it for the next build).
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=unknown
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    make build VERSION="$VERSION" COMMIT="$COMMIT"

# The runtime: the binary, git (the history, freshness, webhook fetches)
# and CA certificates (fetches over https, the OpenAI embedding provider).
# A mounted repository belongs to another user than the container's: git
# is told to trust it (safe.directory), or run with --user. The registry
# of indexed repositories lives in /data, writable by any user.
FROM debian:12.11-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends git ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && git config --system --add safe.directory '*' \
    && mkdir -m 1777 /data
COPY --from=build /src/bin/gitnexus /usr/local/bin/gitnexus
COPY LICENSE README.md /usr/share/doc/gitnexus/
ENV GITNEXUS_HOME=/data
VOLUME /data
WORKDIR /repo
EXPOSE 8910
ENTRYPOINT ["gitnexus"]
# Listening on every address of the container is the port Docker publishes;
# serve refuses a non-loopback address without a token (GITNEXUS_AUTH_TOKEN).
CMD ["serve", "--host", "0.0.0.0", "--port", "8910"]
