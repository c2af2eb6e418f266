#!/bin/sh
# A Hub program that misbehaves on request, for the tests of `match` against Hub programs:
# `hub-fixture.sh BINARY` relays the conversation to `BINARY hub` (checkers-tuner's own Hub
# engine, which finds the legal moves) and misbehaves as the environment variable HUB_FIXTURE
# says:
#
#   exit-after-move   exits right after answering its first move
#   close-input       closes its input after answering its first move, and stays
#   done-twice        answers its first move twice (once: the file HUB_FIXTURE_ONCE marks it)
#   error-new-game    answers `error` to every `new-game`, then plays
#   flood-start       writes `y` lines without end instead of the handshake
#   flood-move        writes `y` lines without end instead of a move
#   fork-exit         at its first move starts `sleep 300` holding its output, and exits 3
#   name              gives a name with a carriage return, an escape sequence and a tab
#
# `ping` is answered here (`pong`); every other line goes to the engine behind.
bin=$1
mode=$HUB_FIXTURE
if [ "$mode" = flood-start ]; then exec yes; fi
dir=$(mktemp -d)
mkfifo "$dir/in" "$dir/out"
"$bin" hub --weights material --database-pieces 0 <"$dir/in" >"$dir/out" 2>/dev/null &
exec 3>"$dir/in" 4<"$dir/out"
rm -rf "$dir"

# Copies the engine's lines up to one starting with $1 (and that one); the last in $last.
relay() {
    while IFS= read -r last <&4; do
        case "$mode $last" in "name id "*) continue ;; esac
        printf '%s\n' "$last"
        case "$last" in "$1"*) return 0 ;; esac
    done
    exit 0
}

while IFS= read -r line; do
    case "$line" in
    hub)
        if [ "$mode" = name ]; then
            printf 'id name="evil\r\033[2J\tname" version=1\n'
        fi
        echo hub >&3
        relay wait
        ;;
    init)
        echo init >&3
        relay ready
        ;;
    new-game)
        echo new-game >&3
        if [ "$mode" = error-new-game ]; then echo 'error message="no new game here"'; fi
        ;;
    ping) echo pong ;;
    go*)
        case "$mode" in
        flood-move) exec yes ;;
        fork-exit)
            sleep 300 &
            exit 3
            ;;
        esac
        printf '%s\n' "$line" >&3
        relay done
        case "$mode" in
        exit-after-move) exit 0 ;;
        close-input)
            exec 0<&-
            exec sleep 300
            ;;
        done-twice)
            if [ ! -e "$HUB_FIXTURE_ONCE" ]; then
                : >"$HUB_FIXTURE_ONCE"
                printf '%s\n' "$last"
            fi
            ;;
        esac
        ;;
    quit)
        echo quit >&3
        exit 0
        ;;
    *) printf '%s\n' "$line" >&3 ;;
    esac
done
