#!/usr/bin/env bash
# A peer on the CPU (issue 63): MASON's flocking beside ours, on the same neighbourhood, in one run.
#
# The peer is the JuliaDynamics ABM frameworks comparison's "Flocking-large" model as it runs on
# MASON 22 (its Flocking_large.java and Flocker_large.java: 400 agents in 150 x 150, a torus,
# visual distance 15, separation 1, speed 1), scaled to N agents at its density. Nothing of it is
# committed here: MASON's sources and the comparison's are cloned from GitHub, or from the bare
# mirrors in $MIRROR (<owner>+<name>/repo), at pinned commits, and compiled with javac under
# $PEERS/mason (only the classes the model reaches: no GUI, no third-party jar). A small driver of
# ours (MasonPeer.java, written below) runs the model headless and times its steps alone.
#
# Our side is bench/peer-mason.ini (shiffman-processing in the same neighbourhood), the world
# scaled to N likewise. At N = 10^3, 10^4, 10^5, 10^6, on one core and on every core, each side's
# runs alternate (ours, MASON, ours, MASON, ...) and the table gives their medians in ns per
# agent-step and the ratio; then both sides' mean neighbour counts (others within 15, the same
# counter, scripts/neighbour-count.py, on each side's final state).
#
# Usage:  scripts/peer-mason.sh                     # the whole table (7 minutes on 2 cores)
#         SIZES="1000 10000" REPS=1 scripts/peer-mason.sh   # a subset
#         scripts/peer-mason.sh --build              # fetch and build the peer only
#         scripts/peer-mason.sh --neighbours         # only the figure the test holds (a minute)
# Environment: PEERS (/work/peers), MIRROR (/work/.mirror), BOIDS (build/release/src/boids),
# SIZES, REPS (3; one at 10^6, where MASON takes minutes a run). Needs javac (Debian's
# openjdk-17-jdk-headless, installed with apt-get when missing and run as root) and taskset.
# Not in CI. Table on stdout, progress on stderr.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
PEERS=${PEERS:-/work/peers}
MIRROR=${MIRROR:-/work/.mirror}
BOIDS=${BOIDS:-$REPO/build/release/src/boids}
SIZES=${SIZES:-1000 10000 100000 1000000}
REPS=${REPS:-3}
INI=$REPO/bench/peer-mason.ini
say() { echo "peer-mason: $*" >&2; }

# Pinned versions: MASON 22 (the commit that made it 22, as the comparison's mason.22.jar), and
# the comparison's master of 2026-02-22.
MASON_COMMIT=4f0a091e48f0bb3cfa9a5fc8842fb9558130b5d2
ABM_COMMIT=553c39447abdd464a23feba4243e9fab38b0b5ea

build_only=0 neighbours_only=0
case "${1:-}" in
  --build) build_only=1 ;;
  --neighbours) neighbours_only=1 ;;
  "") ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' >&2; exit 2 ;;
esac

# ---- 1. A JDK --------------------------------------------------------------------------------
if ! command -v javac >/dev/null; then
  say "no javac: installing Debian's openjdk-17-jdk-headless"
  if [ "$(id -u)" != 0 ]; then
    say "run as root, or: apt-get install openjdk-17-jdk-headless"
    exit 1
  fi
  apt-get update -q >&2 && apt-get install -y -q --no-install-recommends \
    openjdk-17-jdk-headless >&2
fi
command -v taskset >/dev/null || { say "no taskset (apt-get install util-linux)"; exit 1; }

# ---- 2. The sources, at the pinned commits (partial checkouts) -------------------------------
W=$PEERS/mason
mkdir -p "$W/src" "$W/runs"
clone() { # clone <owner+name> <dest> <rev> <paths...>
  local m=$MIRROR/$1/repo dest=$2 rev=$3; shift 3
  [ -d "$m" ] || m=https://github.com/${1/+//}
  if [ ! -d "$dest/.git" ]; then
    mkdir -p "$(dirname "$dest")"
    git clone -q --no-checkout "$m" "$dest"
  fi
  git -C "$dest" checkout -q "$rev" -- "$@"
}
say "sources: MASON ${MASON_COMMIT:0:8}, ABMFrameworksComparison ${ABM_COMMIT:0:8} ($W/src)"
clone eclab+mason "$W/src/mason" $MASON_COMMIT mason/src/main/java
clone JuliaDynamics+ABMFrameworksComparison "$W/src/abm" $ABM_COMMIT Flocking/Mason

# ---- 3. Our driver (this project's code, not MASON's), and the build -------------------------
cat > "$W/src/MasonPeer.java" <<'EOF'
// MasonPeer: runs the ABM frameworks comparison's Flocking_large (MASON 22) headless with N
// agents in its box scaled to N at its density, and times its steps alone. Written by the boids
// project's scripts/peer-mason.sh; the model's classes are the comparison's, unmodified.
//   java MasonPeer --agents N --world L --warmup W --steps S [--seed S] [--dump FILE.csv]
// First a flock of 20 000 agents runs 20 steps and is thrown away (the JIT compiles the step);
// then the measured flock is made, runs W steps untimed and S timed (System.nanoTime around the
// S steps: the wall clock; the thread's CPU time beside it). Prints one line of key value pairs;
// with --dump, rule_neighbours is the mean size of the bag each agent's rule reads (the cells
// about radius 15, getNeighborsWithinDistance: more than the agents within 15), itself aside.
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import sim.util.Bag;
import sim.util.Double2D;

public class MasonPeer {
    static Flocking_large flock(long seed, int agents, double world) {
        Flocking_large f = new Flocking_large(seed);
        f.numFlockers = agents;
        f.width = world;
        f.height = world;
        f.start();
        return f;
    }

    public static void main(String[] args) throws Exception {
        int agents = 10000, warmup = 10, steps = 100;
        double world = -1;
        long seed = 1;
        String dump = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--agents": agents = Integer.parseInt(v); break;
                case "--world": world = Double.parseDouble(v); break;
                case "--warmup": warmup = Integer.parseInt(v); break;
                case "--steps": steps = Integer.parseInt(v); break;
                case "--seed": seed = Long.parseLong(v); break;
                case "--dump": dump = v; break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (world <= 0) world = 150.0 * Math.sqrt(agents / 400.0);
        Flocking_large jit = flock(seed + 1000003, 20000, 150.0 * Math.sqrt(20000 / 400.0));
        for (int s = 0; s < 20; s++) jit.schedule.step(jit);
        jit = null;
        System.gc();

        long t0 = System.nanoTime();
        Flocking_large f = flock(seed, agents, world);
        double init = (System.nanoTime() - t0) * 1e-9;
        for (int s = 0; s < warmup; s++) f.schedule.step(f);
        ThreadMXBean tb = ManagementFactory.getThreadMXBean();
        long c0 = tb.getCurrentThreadCpuTime(), w0 = System.nanoTime();
        for (int s = 0; s < steps; s++) f.schedule.step(f);
        long w1 = System.nanoTime(), c1 = tb.getCurrentThreadCpuTime();
        double agentSteps = (double) agents * steps;

        Bag all = f.flockers.getAllObjects();
        double bag = Double.NaN;
        if (dump != null) {
            bag = 0;
            for (int i = 0; i < all.numObjs; i++) {
                Double2D p = f.flockers.getObjectLocation(all.objs[i]);
                bag += f.flockers.getNeighborsWithinDistance(p, f.neighborhood, true).numObjs - 1;
            }
            try (PrintWriter out = new PrintWriter(dump)) {
                out.println("id,x,y,vx,vy");
                for (int i = 0; i < all.numObjs; i++) {
                    Flocker_large a = (Flocker_large) all.objs[i];
                    Double2D p = f.flockers.getObjectLocation(a);
                    out.println(i + "," + p.x + "," + p.y + "," + a.lastd.x + "," + a.lastd.y);
                }
            }
        }
        System.out.printf(Locale.ROOT, "mason agents %d world %.4f seed %d warmup %d steps %d"
            + " ns_per_agent_step %.1f cpu_ns_per_agent_step %.1f init_s %.3f"
            + " rule_neighbours %.4f java %s%n", agents, world, seed, warmup, steps,
            (w1 - w0) / agentSteps, (c1 - c0) / agentSteps, init, bag / all.numObjs,
            System.getProperty("java.version"));
    }
}
EOF
CLASSES=$W/classes
rm -rf "$CLASSES" && mkdir -p "$CLASSES"
say "javac $(javac -version 2>&1 | awk '{print $2}'): the model, the MASON it reaches, our driver"
nice -n 19 javac -nowarn -encoding UTF-8 -d "$CLASSES" \
  -sourcepath "$W/src/mason/mason/src/main/java" \
  "$W/src/abm/Flocking/Mason/Flocking_large.java" "$W/src/abm/Flocking/Mason/Flocker_large.java" \
  "$W/src/MasonPeer.java" 2> >(grep -v '^Note:' >&2)
say "built: $(find "$CLASSES" -name '*.class' | wc -l) classes in $CLASSES"
[ $build_only = 1 ] && exit 0

# ---- 4. The runs -----------------------------------------------------------------------------
[ -x "$BOIDS" ] || { say "no $BOIDS (build it: README, or set BOIDS)"; exit 1; }
[ -f "$INI" ] || { say "no $INI"; exit 1; }
CORES=$(nproc)
# Steps per N: W untimed, then S timed, the same on both sides (the comparison runs 100 steps;
# MASON's step takes half a second at 10^5 and 10 s at 10^6: fewer steps there, one run at 10^6).
plan() { # plan N -> "W S REPS"
  case $1 in
    1000|10000) echo "10 100 $REPS" ;;
    100000) echo "10 20 $REPS" ;;
    *) echo "2 10 1" ;;
  esac
}
world() { python3 -c "import math; print(f'{150 * math.sqrt($1 / 400):.4f}')"; }
median() {
  sort -g | awk '{v[NR] = $1}
    END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
count() { nice -n 19 python3 "$REPO/scripts/neighbour-count.py" "$1" "$2" "$2" 15; }

ours() { # ours N L W S SEED THREADS [DUMP]: prints ns per boid-step of the simulation alone
  local pin=() extra=()
  if [ "$6" = 1 ]; then pin=(taskset -c 0); fi
  if [ -n "${7:-}" ]; then extra=(--dump "$7"); fi
  "${pin[@]}" "$BOIDS" "$INI" --backend cpu --headless -n "$1" --world "$2x$2" --warmup "$3" \
    --steps "$4" --seed "$5" --threads "$6" "${extra[@]}" > "$W/runs/ours.out"
  sed -n 's/.*simulation alone .* ms per step, \([0-9.]*\) ns per boid-step.*/\1/p' \
    "$W/runs/ours.out"
}
mason() { # mason N L W S SEED THREADS [DUMP]: prints the driver's line
  local pin=() extra=()
  if [ "$6" = 1 ]; then pin=(taskset -c 0); fi
  if [ -n "${7:-}" ]; then extra=(--dump "$7"); fi
  "${pin[@]}" java -cp "$CLASSES" MasonPeer --agents "$1" --world "$2" --warmup "$3" \
    --steps "$4" --seed "$5" "${extra[@]}"
}
field() { sed -n "s/.* $1 \([^ ]*\).*/\1/p"; }

# The figure tests/test_peer_mason.sh holds: 10 000 agents, 10 + 100 steps, seeds 1 to 4, the
# mean over the seeds of each side's mean neighbour count.
test_figure() {
  local l a=() b=() s
  l=$(world 10000)
  for s in 1 2 3 4; do
    say "the test's figure: N 10000, 10 + 100 steps, seed $s"
    ours 10000 "$l" 10 100 "$s" 1 "$W/runs/test-ours.csv" > /dev/null
    mason 10000 "$l" 10 100 "$s" 1 "$W/runs/test-mason.csv" > /dev/null
    a+=("$(count "$W/runs/test-ours.csv" "$l")") b+=("$(count "$W/runs/test-mason.csv" "$l")")
  done
  mean() { printf '%s\n' "$@" | awk '{t += $1} END {printf "%.2f", t / NR}'; }
  echo "tests/test_peer_mason.sh's figure: mean neighbours within 15 at N 10000 after 10 + 100"
  echo "steps, seeds 1 to 4 (MASON ${MASON_COMMIT:0:8}, the comparison ${ABM_COMMIT:0:8}):"
  echo "  ours  ${a[*]}: mean $(mean "${a[@]}")"
  echo "  MASON ${b[*]}: mean $(mean "${b[@]}")"
}
if [ $neighbours_only = 1 ]; then test_figure; exit 0; fi

say "$CORES cores; ours: $("$BOIDS" --version); MASON on $(java -version 2>&1 | head -1)"
rows=()
for n in $SIZES; do
  read -r w s reps <<< "$(plan "$n")"
  l=$(world "$n")
  for threads in 1 "$CORES"; do
    : > "$W/runs/ours-$n-$threads"; : > "$W/runs/mason-$n-$threads"
  done
  for rep in $(seq 1 "$reps"); do
    for threads in 1 "$CORES"; do
      d1="" d2=""
      if [ "$rep" = "$reps" ] && [ "$threads" = 1 ]; then
        d1=$W/runs/ours-$n.csv d2=$W/runs/mason-$n.csv
      fi
      say "N $n (world $l), $w + $s steps, run $rep of $reps, $threads thread(s): ours, then MASON"
      ours "$n" "$l" "$w" "$s" "$rep" "$threads" "$d1" >> "$W/runs/ours-$n-$threads"
      line=$(mason "$n" "$l" "$w" "$s" "$rep" "$threads" "$d2")
      echo "$line" | field ns_per_agent_step >> "$W/runs/mason-$n-$threads"
      if [ -n "$d2" ]; then echo "$line" | field rule_neighbours > "$W/runs/mason-$n.bag"; fi
      say "  ours $(tail -1 "$W/runs/ours-$n-$threads") ns, MASON $(echo "$line" |
        field ns_per_agent_step) ns (its thread's CPU time $(echo "$line" |
        field cpu_ns_per_agent_step) ns)"
    done
  done
  for threads in 1 "$CORES"; do
    o=$(median < "$W/runs/ours-$n-$threads") m=$(median < "$W/runs/mason-$n-$threads")
    rows+=("$(awk -v a="$o" -v b="$m" -v row="| $n | $threads | $w + $s | $reps" \
      'BEGIN {printf "%s | %.1f | %.0f | %.1f |", row, a, b, b / a}')")
  done
done

# ---- 5. The table, the neighbourhoods, the test's figure -------------------------------------
echo "ns per agent-step, the median of the runs (the wall clock around the steps alone: ours the"
echo "program's 'simulation alone', MASON System.nanoTime in the JVM after its JIT's warm-up);"
echo "1 thread: both pinned to one core (taskset -c 0); $CORES: as they come (MASON's schedule"
echo "steps its agents on one thread whatever the cores; the JVM's JIT and GC take the others)"
echo
echo "| N | threads | steps (untimed + timed) | runs | ours | MASON | MASON / ours |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "mean neighbours (others within 15, scripts/neighbour-count.py) after the untimed + timed"
echo "steps, the last run's seed; MASON's rule reads the bag of the cells about 15 (beside):"
echo
echo "| N | ours | MASON | MASON's bag |"
echo "|---|---|---|---|"
for n in $SIZES; do
  l=$(world "$n")
  say "counting neighbours at N $n"
  echo "| $n | $(count "$W/runs/ours-$n.csv" "$l") | $(count "$W/runs/mason-$n.csv" "$l") |" \
    "$(cat "$W/runs/mason-$n.bag") |"
done
echo
test_figure
