#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
# report.pl RAWDIR OUTDIR: turn the raw samples of tests/bench/run into
# the figures (median, min, max over the samples), the ratios, the
# targets, and the outputs: a table on stdout, OUTDIR/results.csv,
# OUTDIR/results.json, OUTDIR/setup-vs-binds.svg and OUTDIR/README.md.
#
# RAWDIR holds
#   samples.tsv   ID, VALUE, STATUS per line (bench-timer's output)
#   manifest.tsv  what to make of them, one directive per line:
#     fig     ID SECTION LABEL UNIT REFS   REFS: ids to divide by, "," between
#     na      ID SECTION LABEL REASON
#     slope   ID SECTION LABEL ID-A ID-B N-A N-B   (B - A) / (N-B - N-A)
#     diff    ID SECTION LABEL UNIT ID-A ID-B      B - A, round by round
#     target  LABEL NUM-ID DEN-ID|- OP THRESHOLD   OP: <= < or info;
#             NUM-ID "ID.failed" is how many runs of figure ID failed
#     plot    SERIES X ID
#   meta.tsv      KEY, VALUE per line (machine, versions, mode, and
#                 bench-forks's fork_idle_ms, fork_busy_ms, fork_same_cpu_pct,
#                 the hypervisor and the kernel's sched* options)
#   noise.tsv     WHEN, LOAD1, BUSY%, STEAL%, RUNNABLE per line: "start"
#                 and "end" (load average, then over 2 s in which the bench
#                 ran nothing the CPU time and the mean runnable tasks),
#                 "run" ("-" for LOAD1 and RUNNABLE: the CPU time from
#                 start to end)
#   failures.tsv  ID, STATUS, STDERR per failed run (bench-timer's)
#   hyperfine-*.json  hyperfine's exports (a cross-check, optional)
#   steps.tsv     tests/bench/steps's per-step breakdown (optional):
#                 "step" ORDER NAME TOOL MS SYSCALLS MOUNT-OPS IN-CALLS-MS RUNS,
#                 "procs" TOOL PROCESSES EXECS RUNS,
#                 "kernel" TOOL WHAT MS CALLS RUNS
#   pam-steps.tsv tests/bench/pam-steps's breakdown of pam_cocoon's share
#                 (optional): "pamfn" ORDER DEPTH NAME MS RUNS
#   pam-steps-join.tsv  the same for a login that joins a shared sandbox
#   profile.txt   optional, linked from the README when present
# OUTDIR/steps-notes.md, when present, is copied into the README after the
# per-step breakdown: the hand-written reading of it.
use strict;
use warnings;
use utf8;
use JSON::PP;

my ($raw, $out) = @ARGV;
die "usage: report.pl RAWDIR OUTDIR\n" unless $raw && $out;

sub read_tsv {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "report.pl: $path: $!\n";
	my @rows;
	while (my $line = <$fh>) {
		chomp $line;
		next if $line eq '' || $line =~ /^#/;
		push @rows, [ split /\t/, $line, -1 ];
	}
	close $fh;
	return @rows;
}

# ---- samples ----
# A burst's round ("ID.all") in which some sessions failed is still timed
# (status "failed:N"): kept apart, with its count of failed sessions.
my (%samples, %failed, %partial, %partial_sessions);
for my $r (read_tsv("$raw/samples.tsv")) {
	my ($id, $value, $status) = @$r;
	if (defined $status && $status =~ /^failed:(\d+)$/ && $value ne 'nan' && $value >= 0) {
		push @{ $partial{$id} }, $value;
		$partial_sessions{$id} += $1;
		next;
	}
	if (!defined $status || $status ne '0' || $value eq 'nan' || $value < 0) {
		$failed{$id}++;
		next;
	}
	push @{ $samples{$id} }, $value;
}

sub median {
	my @x = sort { $a <=> $b } @_;
	return undef unless @x;
	my $n = @x;
	return $n % 2 ? $x[ $n / 2 ] : ($x[ $n / 2 - 1 ] + $x[ $n / 2 ]) / 2;
}

my %meta = map { $_->[0] => $_->[1] } read_tsv("$raw/meta.tsv");

# ---- the machine's own noise ----
# When was the machine not quiet enough for the table to stand as a
# reference: more than half a task per CPU wanting to run (the 1-min load
# average at the start; the tasks runnable in the bench's 2 s pauses at
# the start and end), CPUs busy with others' work in those pauses, or
# time stolen by the hypervisor. The end's load average is shown but not
# judged: the bench's own last minute (its 100 concurrent sessions) is
# in it.
my %quiet_limit = (load_per_cpu => 0.5, busy_pct => 25, steal_pct => 3);
my (%noise, @noisy);
if (-e "$raw/noise.tsv") {
	my $value = sub { defined $_[0] && $_[0] ne '-' && $_[0] ne 'nan' ? ($_[1] => $_[0] + 0) : () };
	for my $r (read_tsv("$raw/noise.tsv")) {
		my ($when, $load, $busy, $steal, $runnable) = @$r;
		$noise{$when} = { $value->($load, 'load1'), $value->($busy, 'busy_pct'),
				  $value->($steal, 'steal_pct'), $value->($runnable, 'runnable') };
	}
	my $cpus = $meta{nproc} || 1;
	if (my $n = $noise{start}) {
		push @noisy, sprintf('load average %.2f at the start (%.2f per CPU, above %s)', $n->{load1},
				     $n->{load1} / $cpus, $quiet_limit{load_per_cpu})
			if defined $n->{load1} && $n->{load1} / $cpus > $quiet_limit{load_per_cpu};
	}
	for my $when (qw(start end)) {
		my $n = $noise{$when} or next;
		push @noisy, sprintf('%.1f tasks runnable in a 2 s pause at the %s (%.2f per CPU, above %s)',
				     $n->{runnable}, $when, $n->{runnable} / $cpus, $quiet_limit{load_per_cpu})
			if defined $n->{runnable} && $n->{runnable} / $cpus > $quiet_limit{load_per_cpu};
	}
	for my $when (qw(start end)) {
		my $n = $noise{$when} or next;
		push @noisy, sprintf('CPUs %.0f%% busy with other work in a 2 s pause at the %s (above %d%%)',
				     $n->{busy_pct}, $when, $quiet_limit{busy_pct})
			if defined $n->{busy_pct} && $n->{busy_pct} > $quiet_limit{busy_pct};
	}
	for my $when (qw(start end run)) {
		my $n = $noise{$when} or next;
		push @noisy, sprintf('%.1f%% of CPU time stolen by the hypervisor %s (above %d%%)', $n->{steal_pct},
				     $when eq 'run' ? 'during the run' : "at the $when", $quiet_limit{steal_pct})
			if defined $n->{steal_pct} && $n->{steal_pct} > $quiet_limit{steal_pct};
	}
}
my $quiet = %noise ? (@noisy ? JSON::PP::false : JSON::PP::true) : undef;
sub noise_text {
	my ($w, $key, $fmt) = @_;
	my $n = $noise{$w};
	return $n && defined $n->{$key} ? sprintf($fmt, $n->{$key}) : '?';
}
# One line for the README and stdout: quiet, or why not.
sub noise_verdict {
	return undef unless %noise;
	return 'The machine was quiet: load average, CPU use by others and steal time within bounds at both ends.'
		unless @noisy;
	return '**The machine was not quiet** (' . join('; ', @noisy) .
	       '): these figures were taken under load and are no reference; a slower figure here is not a regression.';
}

# ---- failed runs ----
# Messages differing only in numbers (pids, ports, session ids) are one.
sub message_kind {
	my ($m) = @_;
	$m =~ s/\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/X/g;
	$m =~ s/\d+/N/g;
	return $m;
}
my (@failure_runs, %failure_kinds);
if (-e "$raw/failures.tsv") {
	for my $r (read_tsv("$raw/failures.tsv")) {
		my ($id, $status, $stderr) = @$r;
		push @failure_runs, { id => $id, status => $status, stderr => $stderr // '' };
		my $k = $failure_kinds{$id}{ message_kind($stderr // '') } //= { count => 0, statuses => {} };
		$k->{count}++;
		$k->{statuses}{$status}++;
		$k->{example} //= $stderr;
	}
}

# ---- per step (tests/bench/steps) ----
# One row per step with each tool's median time, system calls and mount
# operations per run, in the order the steps happen.
my (@steps, %step_at, %procs, @kernel, %kernel_at, %steps_runs);
if (-s "$raw/steps.tsv") {
	for my $r (read_tsv("$raw/steps.tsv")) {
		my ($kind, @f) = @$r;
		if ($kind eq 'step') {
			my ($order, $name, $tool, $ms, $calls, $mounts, $kms, $n) = @f;
			my $s = $step_at{$name} //= do { push @steps, { order => $order + 0, step => $name }; $steps[-1] };
			$s->{$tool} = { ms => $ms + 0, syscalls => $calls + 0, mount_ops => $mounts + 0,
					in_calls_ms => $kms + 0 };
			$steps_runs{$tool} = $n + 0;
		} elsif ($kind eq 'procs') {
			my ($tool, $p, $e) = @f;
			$procs{$tool} = { processes => $p + 0, execs => $e + 0 };
		} elsif ($kind eq 'kernel') {
			my ($tool, $what, $ms, $calls) = @f;
			my $k = $kernel_at{$what} //= do { push @kernel, { calls => $what }; $kernel[-1] };
			$k->{$tool} = { ms => $ms + 0, count => $calls + 0 };
		}
	}
	@steps = sort { $a->{order} <=> $b->{order} } @steps;
}
my @step_tools = ('cocoon', 'bwrap');

# ---- pam_cocoon by function (tests/bench/pam-steps) ----
# A login that builds a new sandbox (pam-steps.tsv) and, where the bench
# measured one, a login that joins a live one (pam-steps-join.tsv): one
# row per function, in the order of the first, with each one's median.
my (@pam_fns, %pam_fn_at, %pam_fn_runs);
for my $kind (['new', 'pam-steps.tsv'], ['join', 'pam-steps-join.tsv']) {
	my ($how, $file) = @$kind;
	next unless -s "$raw/$file";
	for my $r (read_tsv("$raw/$file")) {
		my ($tag, $order, $depth, $name, $ms, $n) = @$r;
		next unless $tag eq 'pamfn';
		my $f = $pam_fn_at{$name} //= do {
			push @pam_fns, { order => $order + ($how eq 'join' ? 0.5 : 0), depth => $depth + 0,
					 function => $name };
			$pam_fns[-1];
		};
		$f->{$how} = $ms + 0;
		$pam_fn_runs{$how} = $n + 0;
	}
}
@pam_fns = sort { $a->{order} <=> $b->{order} } @pam_fns;
# What each row of that breakdown is, for the README.
my %pam_fn_what = (
	open_session => 'pam_sm_open_session, both lines of the stack',
	admission_decide => 'the policy, the account and its groups: the decision',
	identity_complete => 'the user\'s groups, through NSS',
	policy_load => 'reading and parsing the policy',
	policy_resolve => 'the rules matched and merged into a plan',
	sandbox_enter => 'the sandbox built and joined',
	service_filter => 'the seccomp filter compiled',
	service_init => 'cocoon-init opened and checked',
	service_cgroup => 'the session\'s cgroup',
	service_build => 'waiting for the tree: start to the build\'s report',
	builder_groups => 'in the build: the groups (when it needs them)',
	builder_mounts => 'in the build: every mount of the plan',
	builder_pivot => 'in the build: pivot_root',
	builder_rest => 'the wait less the build\'s own work: its processes, cocoon-init\'s exec, the namespaces',
	share_join => 'joining the live sandbox of a shared plan instead (a join)',
	service_end_record => 'the session record',
	service_setns => 'the caller joining the namespaces',
	close_session => 'pam_sm_close_session, both lines',
	sandbox_return => 'back to the host\'s namespaces',
	sandbox_end => 'the session ended: cocoon-init told, the record removed',
);

# ---- figures ----
my (@figures, %fig, @targets, %plot);
for my $r (read_tsv("$raw/manifest.tsv")) {
	my ($kind, @f) = @$r;
	if ($kind eq 'fig') {
		my ($id, $section, $label, $unit, $refs) = @f;
		my @x = @{ $samples{$id} || [] };
		my $f = { id => $id, section => $section, label => $label, unit => $unit,
			  n => scalar @x, failed => $failed{$id} || 0,
			  refs => [ $refs && $refs ne '-' ? split(/,/, $refs) : () ] };
		# Rounds in which some sessions failed: the figure is timed on
		# the rounds without failures, or on these when there is none,
		# and says how many rounds and sessions failed either way.
		if (my $p = $partial{$id}) {
			$f->{failed} = scalar @$p;
			$f->{failed_sessions} = $partial_sessions{$id};
			if (!@x) {
				@x = @$p;
				$f->{n} = scalar @x;
				$f->{timed_with_failures} = JSON::PP::true;
			}
		}
		if (@x) {
			my @s = sort { $a <=> $b } @x;
			@$f{qw(median min max)} = (median(@x), $s[0], $s[-1]);
		}
		push @figures, $f;
		$fig{$id} = $f;
	} elsif ($kind eq 'na') {
		my ($id, $section, $label, $reason) = @f;
		my $f = { id => $id, section => $section, label => $label, unit => '',
			  n => 0, failed => 0, refs => [], na => $reason };
		push @figures, $f;
		$fig{$id} = $f;
	} elsif ($kind eq 'slope') {
		my ($id, $section, $label, $a, $b, $na, $nb) = @f;
		my $f = { id => $id, section => $section, label => $label,
			  unit => 'ms/bind', n => 0, failed => 0, refs => [] };
		if ($fig{$a} && $fig{$b} && defined $fig{$a}{median} &&
		    defined $fig{$b}{median}) {
			$f->{median} = ($fig{$b}{median} - $fig{$a}{median}) / ($nb - $na);
			$f->{n} = $fig{$b}{n};
			$f->{derived} = "($b - $a) / " . ($nb - $na);
		}
		push @figures, $f;
		$fig{$id} = $f;
	} elsif ($kind eq 'diff') {
		# What B adds to A: the difference within each round of an
		# interleaved run (the n-th samples of both ran side by side),
		# so drift between rounds cancels out.
		my ($id, $section, $label, $unit, $base, $with) = @f;
		my @x = @{ $samples{$base} || [] };
		my @y = @{ $samples{$with} || [] };
		my $f = { id => $id, section => $section, label => $label, unit => $unit,
			  n => 0, failed => ($failed{$base} || 0) + ($failed{$with} || 0), refs => [],
			  derived => "$with - $base, per round" };
		if (@x && @x == @y) {
			my @d = sort { $a <=> $b } map { $y[$_] - $x[$_] } 0 .. $#x;
			@$f{qw(median min max n)} = (median(@d), $d[0], $d[-1], scalar @d);
		}
		push @figures, $f;
		$fig{$id} = $f;
	} elsif ($kind eq 'target') {
		my ($label, $num, $den, $op, $threshold) = @f;
		push @targets, { label => $label, num => $num, den => $den, op => $op,
				 threshold => $threshold };
	} elsif ($kind eq 'plot') {
		my ($series, $x, $id) = @f;
		push @{ $plot{$series} }, [ $x, $id ];
	}
}

# Ratios of medians.
for my $f (@figures) {
	for my $ref (@{ $f->{refs} }) {
		my $g = $fig{$ref};
		next unless $g && defined $g->{median} && defined $f->{median} && $g->{median} > 0;
		$f->{ratios}{$ref} = $f->{median} / $g->{median};
	}
}

for my $t (@targets) {
	my $num = $fig{ $t->{num} };
	my $den = $t->{den} ne '-' ? $fig{ $t->{den} } : undef;
	my $value;
	my ($counted) = $t->{num} =~ /^(.*)\.failed$/;
	if (!$num && $counted && $fig{$counted}) {
		my $f = $fig{$counted};
		$value = $f->{failed} if $f->{n} + $f->{failed} > 0;
		$t->{unit} = 'failed of ' . ($f->{n} + $f->{failed});
	} elsif ($num && defined $num->{median}) {
		if (!$den) {
			$value = $num->{median};
		} elsif (defined $den->{median} && $den->{median} > 0) {
			$value = $num->{median} / $den->{median};
		}
	}
	$t->{value} = $value;
	if (!defined $value) {
		$t->{status} = $num && $num->{na} ? 'n/a' : 'NO DATA';
	} elsif ($t->{op} eq 'info') {
		$t->{status} = 'info';
	} elsif ($t->{op} eq '<=') {
		$t->{status} = $value <= $t->{threshold} ? 'PASS' : 'MISS';
	} else {
		$t->{status} = $value < $t->{threshold} ? 'PASS' : 'MISS';
	}
}

# ---- formatting ----
sub num {
	my ($v) = @_;
	return '' unless defined $v;
	my $a = abs $v;
	return sprintf('%.0f', $v) if $a >= 1000;
	return sprintf('%.1f', $v) if $a >= 100;
	return sprintf('%.2f', $v) if $a >= 1;
	return sprintf('%.3f', $v);
}

# A reference named by what differs from the figure's own id: the
# components (split at dots) both share at either end are dropped, so
# "idle10.cocoon.pss_kib" against "idle10.bwrap.pss_kib" reads "bwrap".
sub ref_name {
	my ($id, $ref) = @_;
	my @a = split /\./, $id;
	my @b = split /\./, $ref;
	while (@a > 1 && @b > 1 && $a[0] eq $b[0]) { shift @a; shift @b }
	while (@a > 1 && @b > 1 && $a[-1] eq $b[-1]) { pop @a; pop @b }
	return join('.', @b);
}

sub ratio_text {
	my ($f) = @_;
	return join(', ', map { sprintf('%s× %s', num($f->{ratios}{$_}), ref_name($f->{id}, $_)) }
			  grep { defined $f->{ratios}{$_} } @{ $f->{refs} });
}

sub target_unit {
	my ($t, $goal) = @_;
	return '×' if $t->{den} ne '-';
	return '' if $goal && $t->{unit};
	return ' ' . ($t->{unit} // ($fig{ $t->{num} } ? $fig{ $t->{num} }{unit} : ''));
}

sub target_value_text {
	my ($t) = @_;
	return '—' unless defined $t->{value};
	my $with = $fig{ $t->{num} } && $fig{ $t->{num} }{timed_with_failures} ? ' (rounds with failed sessions)' : '';
	return ($t->{unit} ? $t->{value} : num($t->{value})) . target_unit($t) . $with;
}

sub target_goal_text {
	my ($t) = @_;
	return 'reported' if $t->{op} eq 'info';
	return "$t->{op} $t->{threshold}" . target_unit($t, 1);
}

my @table_head = ('section', 'figure', 'median', 'min', 'max', 'unit', 'n', 'ratio (of medians)');
my @table_rows;
for my $f (@figures) {
	if ($f->{na}) {
		push @table_rows, [ $f->{section}, $f->{label}, $f->{na}, '', '', '', '', '' ];
		next;
	}
	my $n = $f->{n} . ($f->{failed} ? " ($f->{failed} failed)" : '');
	if ($f->{failed_sessions}) {
		$n = $f->{timed_with_failures}
		   ? "$f->{n} (each with failed sessions, $f->{failed_sessions} in all)"
		   : $f->{n} . " (+ $f->{failed} with $f->{failed_sessions} failed sessions)";
	}
	push @table_rows, [ $f->{section}, $f->{label}, num($f->{median}), num($f->{min}),
			    num($f->{max}), $f->{unit}, $n, ratio_text($f) ];
}

# ---- stdout ----
{
	my @w = map { length $table_head[$_] } 0 .. $#table_head;
	for my $r (@table_rows) {
		next if $r->[2] =~ /^n\/a/; # its reason may run past the columns
		for my $i (0 .. $#$r) {
			my $l = length $r->[$i];
			$w[$i] = $l if $l > $w[$i];
		}
	}
	binmode STDOUT, ':utf8';
	my $fmt = sub {
		my @c = @_;
		return join('  ', map { sprintf($_ >= 2 && $_ <= 4 ? "%*s" : "%-*s", $w[$_], $c[$_]) } 0 .. $#c) . "\n";
	};
	print "\n", $fmt->(@table_head);
	print $fmt->(map { '-' x $_ } @w);
	print $fmt->(@$_) for @table_rows;
	if (my $v = noise_verdict()) {
		(my $plain = $v) =~ s/\*\*//g;
		print "\n$plain\n";
	}
	print "\nTargets\n";
	for my $t (@targets) {
		printf "  %-7s %-62s %s (goal %s)\n", $t->{status}, $t->{label},
		       target_value_text($t), target_goal_text($t);
	}
	if (@steps) {
		printf "\nPer step (median of %d traced runs each; ms, system calls, mount operations)\n",
		       $steps_runs{cocoon} // 0;
		printf "  %-11s %9s %9s %7s %7s %6s %6s\n", 'step', 'cocoon ms', 'bwrap ms',
		       'calls c', 'calls b', 'mnt c', 'mnt b';
		for my $s (@steps) {
			printf "  %-11s %9s %9s %7s %7s %6s %6s\n", $s->{step},
			       map({ $s->{$_} ? num($s->{$_}{ms}) : '' } @step_tools),
			       map({ $s->{$_} ? $s->{$_}{syscalls} : '' } @step_tools),
			       map { $s->{$_} ? $s->{$_}{mount_ops} : '' } @step_tools;
		}
	}
	for my $f (grep { $failure_kinds{ $_->{id} } } @figures) {
		printf "\nFailed: %s, %d of %d\n", $f->{label}, $f->{failed}, $f->{n} + $f->{failed};
		my $kinds = $failure_kinds{ $f->{id} };
		for my $k (sort { $kinds->{$b}{count} <=> $kinds->{$a}{count} || $a cmp $b } keys %$kinds) {
			printf "  %5d  status %s: %s\n", $kinds->{$k}{count},
			       join(',', sort keys %{ $kinds->{$k}{statuses} }), $kinds->{$k}{example};
		}
	}
	print "\n";
}

# ---- CSV ----
sub csv {
	my @c = map { my $v = $_ // ''; $v =~ /[",\n]/ ? do { $v =~ s/"/""/g; "\"$v\"" } : $v } @_;
	return join(',', @c) . "\n";
}
{
	open(my $fh, '>:utf8', "$out/results.csv") or die "$out/results.csv: $!\n";
	print $fh csv(qw(kind section id label unit median min max n failed note));
	for my $f (@figures) {
		print $fh csv('figure', $f->{section}, $f->{id}, $f->{label}, $f->{unit},
			      map({ defined $_ ? sprintf('%.4f', $_) : '' } @$f{qw(median min max)}),
			      $f->{n}, $f->{failed}, $f->{na} // $f->{derived} // '');
		for my $ref (@{ $f->{refs} }) {
			next unless defined $f->{ratios}{$ref};
			print $fh csv('ratio', $f->{section}, "$f->{id}/$ref",
				      "$f->{label} / $fig{$ref}{label}", 'x',
				      sprintf('%.4f', $f->{ratios}{$ref}), '', '', '', '', 'ratio of medians');
		}
	}
	for my $t (@targets) {
		print $fh csv('target', '', $t->{num} . ($t->{den} ne '-' ? "/$t->{den}" : ''),
			      $t->{label}, $t->{den} ne '-' ? 'x' : $fig{ $t->{num} }{unit},
			      defined $t->{value} ? sprintf('%.4f', $t->{value}) : '', '', '', '', '',
			      "$t->{status} (goal " . target_goal_text($t) . ')');
	}
	for my $w (qw(start end run)) {
		my $n = $noise{$w} or next;
		for my $key (qw(load1 runnable busy_pct steal_pct)) {
			next unless defined $n->{$key};
			print $fh csv('noise', '', "noise.$w.$key", "$key " . ($w eq 'run' ? 'during the run' : "at the $w"),
				      $key eq 'load1' || $key eq 'runnable' ? 'tasks' : '%', $n->{$key}, '', '', '', '',
				      $key eq 'load1' || $w eq 'run' ? '' : 'over a 2 s pause');
		}
	}
	print $fh csv('noise', '', 'noise.quiet', 'the machine was quiet', '', $quiet ? 1 : 0, '', '', '', '',
		      join('; ', @noisy)) if %noise;
	for my $id (sort keys %failure_kinds) {
		my $kinds = $failure_kinds{$id};
		for my $k (sort keys %$kinds) {
			print $fh csv('failure', '', $id, $kinds->{$k}{example}, 'runs', $kinds->{$k}{count}, '', '', '', '',
				      'status ' . join(',', sort keys %{ $kinds->{$k}{statuses} }));
		}
	}
	close $fh;
}

# ---- JSON ----
my @hyperfine;
for my $file (sort glob("$raw/hyperfine-*.json")) {
	open(my $fh, '<', $file) or next;
	local $/;
	my $data = eval { decode_json(<$fh>) };
	close $fh;
	next unless $data && $data->{results};
	for my $r (@{ $data->{results} }) {
		my @t = map { $_ * 1000 } @{ $r->{times} || [] };
		push @hyperfine, { command => $r->{command}, runs => scalar @t,
				   median_ms => $r->{median} * 1000, min_ms => $r->{min} * 1000,
				   max_ms => $r->{max} * 1000, mean_ms => $r->{mean} * 1000 };
	}
}
{
	my $json = JSON::PP->new->utf8->pretty->canonical;
	my %doc = (
		machine => \%meta,
		figures => [ map {
			my $f = $_;
			+{ (map { defined $f->{$_} ? ($_ => $f->{$_}) : () }
			    qw(id section label unit median min max n failed failed_sessions timed_with_failures na derived)),
			   (%{ $f->{ratios} || {} } ? (ratios => $f->{ratios}) : ()) }
		} @figures ],
		targets => [ map { +{ %$_ } } @targets ],
		hyperfine_crosscheck => \@hyperfine,
		(@steps ? (breakdown => { runs => \%steps_runs, steps => \@steps, processes => \%procs,
					  time_in_calls => \@kernel,
					  how => 'tests/bench/steps: perf record of raw system call and scheduler '
						 . 'tracepoints over interleaved runs; medians per run' }) : ()),
		(@pam_fns ? (pam_breakdown => { runs => \%pam_fn_runs, functions => \@pam_fns,
						 how => 'tests/bench/pam-steps: uprobes on pam_cocoon.so over '
							. 'pamtester open+close runs; medians per run' }) : ()),
		(%noise ? (noise => { %noise, quiet => $quiet, not_quiet_because => \@noisy,
				       limits => \%quiet_limit }) : ()),
		failures => {
			runs => \@failure_runs,
			kinds => [ map {
				my $id = $_;
				map { +{ id => $id, message => $_, count => $failure_kinds{$id}{$_}{count},
					 statuses => $failure_kinds{$id}{$_}{statuses},
					 example => $failure_kinds{$id}{$_}{example} } }
				    sort keys %{ $failure_kinds{$id} }
			} sort keys %failure_kinds ],
		},
	);
	open(my $fh, '>', "$out/results.json") or die "$out/results.json: $!\n";
	print $fh $json->encode(\%doc);
	close $fh;
}

# ---- SVG: setup time against the number of binds, log-log ----
my $svg_name = 'setup-vs-binds.svg';
{
	my ($W, $H, $L, $R, $T, $B) = (640, 420, 70, 150, 40, 55);
	my @all;
	for my $s (values %plot) {
		for my $p (@$s) {
			my $f = $fig{ $p->[1] };
			push @all, $f->{min}, $f->{max} if $f && defined $f->{median};
		}
	}
	my @xs = map { $_->[0] } map { @$_ } values %plot;
	if (@all && @xs) {
		my $log = sub { log($_[0]) / log(10) };
		my ($xmin, $xmax) = (sort { $a <=> $b } @xs)[ 0, -1 ];
		my ($ymin, $ymax) = (sort { $a <=> $b } @all)[ 0, -1 ];
		my ($lx0, $lx1) = (int($log->($xmin)) - 0.15, $log->($xmax) + 0.15);
		my ($ly0, $ly1) = (POSIX_floor($log->($ymin)), POSIX_ceil($log->($ymax)));
		$ly1 = $ly0 + 1 if $ly1 <= $ly0;
		my $px = sub { $L + ($log->($_[0]) - $lx0) / ($lx1 - $lx0) * ($W - $L - $R) };
		my $py = sub { $H - $B - ($log->($_[0]) - $ly0) / ($ly1 - $ly0) * ($H - $T - $B) };
		my @o;
		push @o, qq(<svg xmlns="http://www.w3.org/2000/svg" width="$W" height="$H" viewBox="0 0 $W $H" font-family="sans-serif" font-size="12">);
		push @o, qq(<rect width="$W" height="$H" fill="white"/>);
		push @o, qq(<text x="@{[$W/2 - $R/2 + $L/2]}" y="22" text-anchor="middle" font-size="14">Sandbox setup time against the number of bind mounts</text>);
		# Grid and axes.
		for my $e ($ly0 .. $ly1) {
			for my $m (1 .. 9) {
				my $v = $m * 10**$e;
				last if $log->($v) > $ly1 + 1e-9;
				my $y = sprintf('%.1f', $py->($v));
				my $c = $m == 1 ? '#bbb' : '#eee';
				push @o, qq(<line x1="$L" y1="$y" x2="@{[$W-$R]}" y2="$y" stroke="$c"/>);
				push @o, qq(<text x="@{[$L-6]}" y="@{[$y+4]}" text-anchor="end">@{[$v >= 1 ? sprintf('%d', $v) : $v]}</text>) if $m == 1;
			}
		}
		my %seen;
		for my $x (sort { $a <=> $b } grep { !$seen{$_}++ } @xs) {
			my $X = sprintf('%.1f', $px->($x));
			push @o, qq(<line x1="$X" y1="$T" x2="$X" y2="@{[$H-$B]}" stroke="#ddd"/>);
			push @o, qq(<text x="$X" y="@{[$H-$B+16]}" text-anchor="middle">$x</text>);
		}
		push @o, qq(<rect x="$L" y="$T" width="@{[$W-$L-$R]}" height="@{[$H-$T-$B]}" fill="none" stroke="#444"/>);
		push @o, qq(<text x="@{[($L+$W-$R)/2]}" y="@{[$H-14]}" text-anchor="middle">bind mounts in the plan (log scale)</text>);
		push @o, qq(<text x="16" y="@{[($T+$H-$B)/2]}" text-anchor="middle" transform="rotate(-90 16 @{[($T+$H-$B)/2]})">setup + /bin/true, ms (log scale)</text>);
		my @colors = ('#1f5fbf', '#d9730d', '#2a9d4b', '#a23b72');
		my $i = 0;
		for my $series (sort keys %plot) {
			my $c = $colors[ $i % @colors ];
			my @pts = grep { $fig{ $_->[1] } && defined $fig{ $_->[1] }{median} }
				  sort { $a->[0] <=> $b->[0] } @{ $plot{$series} };
			my $path = join(' ', map { sprintf('%.1f,%.1f', $px->($_->[0]), $py->($fig{ $_->[1] }{median})) } @pts);
			push @o, qq(<polyline points="$path" fill="none" stroke="$c" stroke-width="2"/>) if @pts > 1;
			for my $p (@pts) {
				my $f = $fig{ $p->[1] };
				my ($X, $Y) = map { sprintf('%.1f', $_) } $px->($p->[0]), $py->($f->{median});
				my ($Y0, $Y1) = map { sprintf('%.1f', $py->($_)) } $f->{min}, $f->{max};
				push @o, qq(<line x1="$X" y1="$Y0" x2="$X" y2="$Y1" stroke="$c"/>);
				push @o, qq(<line x1="@{[$X-4]}" y1="$Y0" x2="@{[$X+4]}" y2="$Y0" stroke="$c"/>);
				push @o, qq(<line x1="@{[$X-4]}" y1="$Y1" x2="@{[$X+4]}" y2="$Y1" stroke="$c"/>);
				push @o, qq(<circle cx="$X" cy="$Y" r="4" fill="$c"/>);
				# Labels of the first series above their points, the others below.
				my $ty = $i == 0 ? $Y - 7 : $Y + 16;
				push @o, qq(<text x="@{[$X+7]}" y="$ty" fill="$c" font-size="11">@{[num($f->{median})]}</text>);
			}
			my $ly = $T + 20 + 22 * $i;
			push @o, qq(<line x1="@{[$W-$R+14]}" y1="$ly" x2="@{[$W-$R+38]}" y2="$ly" stroke="$c" stroke-width="2"/>);
			push @o, qq(<circle cx="@{[$W-$R+26]}" cy="$ly" r="4" fill="$c"/>);
			push @o, qq(<text x="@{[$W-$R+44]}" y="@{[$ly+4]}">$series</text>);
			$i++;
		}
		push @o, qq(<text x="@{[$W-$R+14]}" y="@{[$T+20+22*$i+6]}" font-size="10" fill="#555">dot: median</text>);
		push @o, qq(<text x="@{[$W-$R+14]}" y="@{[$T+20+22*$i+20]}" font-size="10" fill="#555">bar: min to max</text>);
		push @o, '</svg>';
		open(my $fh, '>', "$out/$svg_name") or die "$out/$svg_name: $!\n";
		print $fh join("\n", @o), "\n";
		close $fh;
	} else {
		$svg_name = undef;
	}
}

sub POSIX_floor { my $v = shift; my $i = int $v; return $i > $v ? $i - 1 : $i }
sub POSIX_ceil { my $v = shift; my $i = int $v; return $i < $v ? $i + 1 : $i }

# ---- README ----
{
	my @md;
	my $m = sub { $meta{ $_[0] } // '?' };
	push @md, '# cocoon benchmarks', '';
	push @md, '<!-- Generated by tests/bench/run; do not edit by hand: run it again. -->', '';
	push @md, "Generated by `tests/bench/run" . ($m->('mode') eq 'quick' ? ' --quick' : '') .
		  "` on " . $m->('date') . ' (' . $m->('mode') . ' mode, ' . $m->('elapsed') .
		  " s). Run it again with `make bench` (full) or `tests/bench/run --quick`.", '';
	push @md, '## Machine', '';
	push @md, '| | |', '|---|---|';
	push @md, "| CPUs (nproc) | " . $m->('nproc') . ' |';
	push @md, "| CPU model | " . $m->('cpu') . ' |';
	push @md, "| kernel | " . $m->('kernel') . ' |';
	push @md, "| memory | " . $m->('memory') . ' |';
	push @md, "| system | " . $m->('os') . ' |';
	push @md, '| hypervisor (as the kernel detected it) | ' .
		  ($meta{hypervisor} ne '' ? $meta{hypervisor} : 'none reported') . ' |'
		if defined $meta{hypervisor};
	push @md, '| scheduler options on the kernel command line | ' .
		  ($meta{sched_cmdline} ne '' ? "`$meta{sched_cmdline}`" : 'none') . ' |'
		if defined $meta{sched_cmdline};
	# How soon a forked child runs (forks.c): where it waits for its busy
	# parent, a sandbox's processes take turns rather than share the CPUs.
	push @md, '| a forked child\'s first instruction (median) | ' . $m->('fork_idle_ms') .
		  ' ms after the fork with the parent blocked at once; ' . $m->('fork_busy_ms') .
		  ' ms with the parent busy 2 ms first, on the parent\'s CPU in ' .
		  $m->('fork_same_cpu_pct') . '% of those (bench-forks, 200 each) |'
		if defined $meta{fork_idle_ms} && $meta{fork_idle_ms} ne '?';
	push @md, '| load average (1 min) | ' . noise_text('start', 'load1', '%.2f') . ' at the start, ' .
		  noise_text('end', 'load1', '%.2f') . ' at the end (the bench\'s own last minute in it) |';
	push @md, '| tasks runnable (2 s pause) | ' . noise_text('start', 'runnable', '%.1f') . ' at the start, ' .
		  noise_text('end', 'runnable', '%.1f') . ' at the end |';
	push @md, '| CPU busy with other work (2 s pause) | ' . noise_text('start', 'busy_pct', '%.0f%%') .
		  ' at the start, ' . noise_text('end', 'busy_pct', '%.0f%%') . ' at the end |';
	push @md, '| CPU time stolen by the hypervisor | ' . noise_text('start', 'steal_pct', '%.1f%%') .
		  ' at the start, ' . noise_text('end', 'steal_pct', '%.1f%%') . ' at the end, ' .
		  noise_text('run', 'steal_pct', '%.1f%%') . ' during the run |';
	push @md, "| cocoon | " . $m->('cocoon') . ' |';
	push @md, "| compared with | " . $m->('tools') . ' |';
	push @md, '';
	if (my $v = noise_verdict()) {
		push @md, $v, '';
	}
	push @md, '## Targets', '';
	push @md, '| target | value | goal | result |', '|---|---|---|---|';
	for my $t (@targets) {
		push @md, "| $t->{label} | " . target_value_text($t) . ' | ' . target_goal_text($t) .
			  " | **$t->{status}** |";
	}
	push @md, '';
	push @md, '## Results', '';
	push @md, 'Every figure is the median over the runs, with the fastest and slowest run.',
		  'Ratios divide medians measured in the same interleaved run.', '';
	push @md, '| ' . join(' | ', @table_head) . ' |';
	push @md, '|' . join('|', map { $_ >= 2 && $_ <= 4 || $_ == 6 ? '---:' : '---' } 0 .. $#table_head) . '|';
	for my $r (@table_rows) {
		push @md, '| ' . join(' | ', map { my $c = $_; $c =~ s/\|/\\|/g; $c } @$r) . ' |';
	}
	push @md, '';
	if (@steps) {
		push @md, '## Where the time goes, per step', '';
		push @md, "`tests/bench/steps` (`tests/bench/profile --steps`): $steps_runs{cocoon} runs of `cocoonctl run`",
			  "(default hardening) and $steps_runs{bwrap} of bubblewrap with the same plan, interleaved,",
			  'under `perf record` of every system call and process event (which slows',
			  'each call a little: the totals run above the untraced figures). Medians per run;',
			  'mount operations are mount, umount2, pivot_root, open_tree, move_mount,',
			  'mount_setattr, fsopen, fsmount and fspick.', '';
		push @md, '"In calls": the part of the step spent inside its system calls (those that',
			  'wait for another process, such as wait4, poll or futex, left out), the part',
			  'that grows with the kernel\'s cost per call.', '';
		push @md, '| step | ends at | cocoon ms | bwrap ms | cocoon in calls | bwrap in calls | cocoon syscalls | bwrap syscalls | cocoon mount ops | bwrap mount ops |',
			  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|';
		my %ends = ('prepare' => 'the first clone, unshare or setns', 'namespaces' => 'the first mount operation',
			    'mounts' => 'the end of the last mount operation', 'to exec' => 'the exec of /bin/true',
			    'command' => '/bin/true\'s exit', 'teardown' => 'the exit of the last process',
			    'total' => 'from the fork');
		for my $s (@steps) {
			push @md, "| $s->{step} | " . ($ends{ $s->{step} } // '') . ' | ' .
				  join(' | ', map({ $s->{$_} ? num($s->{$_}{ms}) : '' } @step_tools),
					      map({ $s->{$_} ? num($s->{$_}{in_calls_ms}) : '' } @step_tools),
					      map({ $s->{$_} ? $s->{$_}{syscalls} : '' } @step_tools),
					      map { $s->{$_} ? $s->{$_}{mount_ops} : '' } @step_tools) . ' |';
		}
		push @md, '';
		if (@kernel) {
			push @md, 'Time inside the calls themselves, per run (calls that wait for another',
				  'process, such as wait4, poll or futex, left out):', '';
			push @md, '| calls | cocoon ms | bwrap ms | cocoon count | bwrap count |', '|---|---:|---:|---:|---:|';
			for my $k (@kernel) {
				push @md, "| $k->{calls} | " .
					  join(' | ', map({ $k->{$_} ? num($k->{$_}{ms}) : '' } @step_tools),
						      map { $k->{$_} ? $k->{$_}{count} : '' } @step_tools) . ' |';
			}
			push @md, '| processes, execs | ' . join(' | ', map({ $procs{$_} ? "$procs{$_}{processes}, $procs{$_}{execs}" : '' } @step_tools), '', '') . ' |'
				if %procs;
			push @md, '';
		}
		# The reading of the breakdown is written by hand (it is
		# judgement, not a figure) and kept beside the generated page.
		if (open(my $nf, '<:utf8', "$out/steps-notes.md")) {
			push @md, map { chomp; $_ } <$nf>;
			close $nf;
			push @md, '';
		}
	}
	if (@pam_fns) {
		push @md, '## Where pam_cocoon\'s share goes, per function', '';
		my $joins = $pam_fn_runs{join} ? " and $pam_fn_runs{join} of a login that joins a live shared sandbox" : '';
		push @md, "`tests/bench/pam-steps`: " . ($pam_fn_runs{new} // 0) .
			  " runs of `pamtester open_session close_session` that build a new sandbox$joins,",
			  'through the stack with pam_cocoon (the policy of section 2), under uprobes on',
			  'the entry and return of these functions of pam_cocoon.so. A function\'s time is',
			  'the sum over its calls in one run, the median over the runs; the rows indented',
			  'are part of the row above them. The build runs in processes of its own while',
			  'the caller waits, and its rows are those processes\' time.', '';
		push @md, '| function | what it is | new sandbox ms | join ms |', '|---|---|---:|---:|';
		for my $f (@pam_fns) {
			my $indent = '&nbsp;&nbsp;' x (2 * $f->{depth});
			push @md, "| $indent`$f->{function}` | " . ($pam_fn_what{ $f->{function} } // '') .
				  ' | ' . join(' | ', map { defined $f->{$_} ? num($f->{$_}) : '' } qw(new join)) . ' |';
		}
		push @md, '';
	}
	if (my @failing = grep { $failure_kinds{ $_->{id} } } @figures) {
		push @md, '## Failed runs', '';
		push @md, 'Every failed run is in `results.json` (`failures.runs`: its figure, exit',
			  'status and first lines of stderr). By message, numbers taken as one:', '';
		push @md, '| figure | failed | count | status | message (an example) |', '|---|---:|---:|---|---|';
		for my $f (@failing) {
			my $kinds = $failure_kinds{ $f->{id} };
			my $failed = "$f->{failed} of " . ($f->{n} + $f->{failed});
			for my $k (sort { $kinds->{$b}{count} <=> $kinds->{$a}{count} || $a cmp $b } keys %$kinds) {
				(my $msg = $kinds->{$k}{example}) =~ s/\|/\\|/g;
				push @md, "| $f->{label} | $failed | $kinds->{$k}{count} | " .
					  join(', ', sort keys %{ $kinds->{$k}{statuses} }) . " | `$msg` |";
				$failed = '';
			}
		}
		push @md, '';
	}
	if ($svg_name) {
		push @md, '## Setup time against the number of binds', '';
		push @md, "![setup time against the number of binds, cocoon beside bubblewrap]($svg_name)", '';
		push @md, 'Both axes are logarithmic: a slope of one decade per decade is linear growth, two is quadratic.', '';
	}
	if (@hyperfine) {
		push @md, '## Cross-check with hyperfine', '';
		push @md, 'The same commands timed by hyperfine (`-N`, one command after the other rather',
			  'than interleaved; bubblewrap run by hyperfine as the user):', '';
		push @md, '| command | median ms | min | max | runs |', '|---|---:|---:|---:|---:|';
		for my $h (@hyperfine) {
			(my $c = $h->{command}) =~ s/\|/\\|/g;
			$c = substr($c, 0, 100) . '…' if length $c > 100;
			push @md, "| `$c` | " . join(' | ', map { num($_) } @$h{qw(median_ms min_ms max_ms)}) .
				  " | $h->{runs} |";
		}
		push @md, '';
	}
	push @md, '## How it measures', '';
	push @md, split /\n/, <<'EOT';
- A small C timer (`tests/bench/timer.c`) forks and execs each command with
  stdin and stdout on /dev/null and stderr in a memory file, and takes the
  wall time from fork to reap (CLOCK_MONOTONIC). A run that fails (exit
  status not 0) is left out of its figure and counted ("n (k failed)");
  its status and first lines of stderr go to `results.json`
  (`failures.runs`) and the table of failed runs above. Commands
  compared with each other run interleaved: every round runs each of
  them once, in a new random order (fixed seed), so each follows each
  other equally often (the kernel finishes tearing down a network
  namespace in a worker after its last process is gone, which costs
  whatever runs next); warm-up rounds are dropped. The timer is the
  subreaper of what it runs: what a command leaves behind (bubblewrap's
  pid 1 ends after bwrap returns) is reaped before the next one starts, and
  `bwrap_tree` is bwrap timed until then, its last process gone, as
  `cocoonctl run` always is.
- "As the user": the timer itself switches to the throwaway user (groups,
  gid, uid, home, a login-like environment) before the exec, as sshd does,
  so no runuser or PAM time is counted. `cocoonctl run` and `unshare` run as
  root, as they must.
- Setup: `/bin/true` in the sandbox of `conf/examples/bwrap-readme.conf`
  (the seed article's example). bubblewrap runs the command line that
  `cocoonctl explain --bwrap` prints for the same policy, as the user
  (Debian's bwrap is not setuid: it uses an unprivileged user namespace).
  firejail runs `--quiet --noprofile --net=none --private-dev --private-tmp`,
  and once more with `--seccomp --caps.drop=all --nonewprivs`.
  cocoon runs once with `seccomp = none` and `no-new-privs = no` (what the
  bubblewrap command line does, apart from bwrap's own no_new_privs) and
  once with the default hardening (`seccomp = default`, `no-new-privs = yes`).
- Login path: `cocoon-shell -c true` exec'd as the user, as sshd starts a
  command through the login shell, against `bash -c true`, with the
  bwrap-readme policy and with the shipped `conf/cocoon.conf` (the embedded
  default profile) installed as the private tree's `cocoon.conf`.
- PAM: `pamtester SERVICE ccbn1 open_session close_session` as root, through
  two services of the bench's own that differ only in pam_cocoon's two
  session lines (`return` first, the sandboxing line after `pam_unix`);
  the bwrap-readme policy with the default hardening is the private tree's
  `cocoon.conf`. "What it adds" is the median of the differences within
  each round, not the difference of the medians.
- Joining a shared sandbox: the same service and policy, with
  `share-sandbox = yes` for ccbn1 only. `tests/bench/hold.c` holds one
  ccbn1 login open (pam_open_session, then a wait for SIGTERM), so its
  shared sandbox stays alive; each pamtester open+close of ccbn1 then
  joins it (checked first: a second held login makes no `cocoon-init`),
  while the bench's other user, without the directive, gets a new sandbox
  of the same plan each time. Rounds interleave both with the stack
  without pam_cocoon; "what a join adds" is taken round by round, and its
  goal is the `unshare` floor of Setup (a join is setns, no mounts).
  Under systemd every PAM login builds its own sandbox: not measured.
- ssh: `ssh 127.0.0.1 true` as root, with a key, to two private sshds
  (`tests/lib.sh`'s) whose PAM services are Debian's sshd stack, one of them
  with pam_cocoon's lines added; the commands alternate, as everywhere.
  Half the rounds have the module on one sshd, half on the other (the
  stacks are swapped between): two sshds differ by some 10 ms from run
  to run whatever their stacks. Each half first checks that the session
  through the module is sandboxed (its pid 1 is `cocoon-init`) and the
  other is not.
- Login storm: 100 `ssh 127.0.0.1 echo MARKER` (one user, the same key)
  started at once against one of the two sshds, then against the other,
  which goes first alternating, half the rounds on each sshd as above.
  "Until all answered" is the time until the last of the 100 is reaped,
  over the rounds in which none failed (as "all" under Growth below); a
  login fails when ssh exits with another status than 0 or its output
  lacks the marker. Both sshds
  have `MaxStartups 200`: the default (10:30:100) drops connections at
  random from the eleventh one not yet authenticated. The storm's ssh
  waits up to 120 s for the connection and key exchange (`ConnectTimeout`):
  a slow login is slow, not failed.
- Noise: at the start and at the end the bench records the 1-min load
  average and, over 2 s in which it runs nothing, the tasks runnable and
  the CPU time busy and stolen (`/proc/stat`), and the time stolen over
  the whole run. The machine counts as not quiet with more than half a
  runnable task per CPU (the load average at the start, the pauses at
  both ends: the load average at the end holds the bench's own last
  minute), CPUs more than 25% busy in a pause, or more than 3% of the
  time stolen; the report then says so above the targets.
- Growth: the bwrap-readme policy (seccomp none) plus N `ro-bind`s of
  generated root-owned directories onto `/b/dN`; bubblewrap runs the same
  plan from `explain --bwrap`. Concurrency: K `cocoonctl run` (or bwrap)
  started at once; "each" is one session's time, "all" until the last ends.
  "All" is timed on the rounds in which every session succeeded, and on
  the rounds with failed sessions when there is none such; the n column
  counts both ("5 (+ 5 with 7 failed sessions)"), and each failed
  session is in `failures.runs` with its status and stderr.
- Footprint: K idle sessions running `sleep`; Pss (and its anonymous part)
  from `/proc/PID/smaps_rollup` summed over every process the tool adds
  (for cocoon: the waiting `cocoonctl` and `cocoon-init`), divided by K.
  Kernel memory (namespaces, mounts, tmpfs) is not in Pss. Teardown: the
  session's main process is killed; the time runs until the tool exits and
  until the last process of the tree is reaped (the timer is their
  subreaper), then the user's live processes are counted.
EOT
	if (-s "$raw/profile.txt") {
		push @md, '', '## Profile', '', 'Where the time of `cocoonctl run` goes (`tests/bench/run --profile`):', '', '```';
		open(my $fh, '<', "$raw/profile.txt");
		push @md, map { chomp; $_ } <$fh>;
		close $fh;
		push @md, '```';
	}
	open(my $fh, '>:utf8', "$out/README.md") or die "$out/README.md: $!\n";
	print $fh join("\n", @md), "\n";
	close $fh;
}
