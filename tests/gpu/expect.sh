# Sourced by the gpu-check script tests: a scratch folder removed at exit, and expect(),
# which counts a failed check and names it, so one run reports every failure.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
expect() { # description, then a command that must succeed
    local what=$1
    shift
    if ! "$@"; then
        echo "FAILED: $what"
        failures=$((failures + 1))
    fi
}
