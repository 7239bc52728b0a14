# The two commands of the README: `make run` and `make test`.
.PHONY: run test build bench

# Said before a build in a fresh clone, which compiles every dependency too.
first_build_note = [ -x .build/debug/commons ] || echo "make: the first build compiles Commons and \
its dependencies: about 8 minutes on 2 cores (later builds take seconds)"

build:
	@scripts/setup.sh run
	@$(first_build_note)
	swift build

## Installs what is missing (scripts/setup.sh run), builds everything and runs the whole
## stack (`commons up`): the five services, the gateway and web app on :8080, the embedded
## SQLite event log in ./.commons, demo data on first start.
run: build
	.build/debug/commons up

## Installs what is missing (scripts/setup.sh test), then runs every test against real
## SQLite files and a real PostgreSQL (a throwaway one unless COMMONS_TEST_POSTGRES_URL names
## a server): first the SDK's, built as the package of its own that apps depend on
## (Clients/CommonsClient), then the server's. A run in which no test
## starts or ends for ten minutes is stopped, naming the tests still running
## (scripts/watch-tests.py). Then the web app's journeys in headless Chromium against a seeded
## `commons up` (scripts/check-web.sh).
## At most TEST_WIDTH tests run at once: many start whole stacks of processes, and with no
## limit, on two cores, hundreds of them at once starve each other past their deadlines.
TEST_WIDTH ?= 6

test:
	@scripts/setup.sh test
	@$(first_build_note)
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) \
	  scripts/with-postgres.sh scripts/watch-tests.py -- sh -c 'swift test --package-path Clients/CommonsClient && swift test'
	scripts/check-web.sh

## Measures the event log on a throwaway PostgreSQL, then accounts, geo-search, photos, the
## whole topology (every service behind nginx, one and two replicas), the hot read paths
## over HTTP beside /health/live and a listing's time from post to visible, in release mode.
bench:
	swift build -c release
	COMMONS_TEST_POSTGRES_OPTIONS="$(BENCH_POSTGRES_OPTIONS)" scripts/with-postgres.sh sh -c '.build/release/commons bench eventlog --postgres "$$COMMONS_TEST_POSTGRES_URL"'
	.build/release/commons bench accounts
	.build/release/commons bench geo-search
	.build/release/commons bench images
	.build/release/commons bench topology
	.build/release/commons bench http
	.build/release/commons bench visible
