#!/usr/bin/perl
# probe.pl TEST [ARG]: one escape attempt; prints "TEST:OK" or "TEST:ERR<errno>".
use strict; use warnings; no warnings 'portable'; use Socket;
my ($t, $a) = @ARGV;
sub res { my ($r) = @_; print "$t:", ($r < 0 ? "ERR" . ($! + 0) : "OK"), "\n"; }
my $buf = "\0" x 256;
if ($t eq 'tiocsti') { res(syscall(16, 0, 0x5412, my $c = "#")) }
elsif ($t eq 'tiocsti-hi') { res(syscall(16, 0, 0x100005412, my $c = "#")) }
elsif ($t eq 'tioclinux') { my $c = "\x02" . ("\0" x 16); res(syscall(16, 0, 0x541C, $c)) }
elsif ($t eq 'tiocsetd') { my $ld = pack("i", 0); res(syscall(16, 0, 0x5423, $ld)) }
# PTRACE_SEIZE: the same permission check as PTRACE_ATTACH, without the
# SIGSTOP that would leave the target stopped (and, in an orphaned process
# group, bring SIGHUP to the whole test run) once this probe exits.
elsif ($t eq 'ptrace') { res(syscall(101, 0x4206, $a + 0, 0, 0)) }
elsif ($t eq 'kill') { res(kill(0, $a) ? 0 : -1) }
# ARG, a path that does not exist, tells a seccomp refusal (EPERM, before
# any work) from the kernel's own answer (ENOENT, from the lookup that
# precedes its permission checks and Landlock's hooks).
elsif ($t eq 'mount') { res(syscall(165, my $s = "none", my $d = $a // "/tmp", my $f = "tmpfs", 0, 0)) }
elsif ($t eq 'umount2') { res(syscall(166, my $d = $a // "/tmp", 2)) } # MNT_DETACH
elsif ($t eq 'pivot_root') { res(syscall(155, my $n = $a // "/tmp", my $o = $a // "/tmp")) }
elsif ($t eq 'open_tree') { res(syscall(428, -100, my $p = "/tmp", 1)) } # OPEN_TREE_CLONE
elsif ($t eq 'fsopen') { res(syscall(430, my $f = "tmpfs", 0)) }
elsif ($t eq 'unshare-user') { res(syscall(272, 0x10000000)) }
elsif ($t eq 'io_uring') { my $p = "\0" x 120; res(syscall(425, 8, $p)) }
elsif ($t eq 'af_alg') { res(socket(my $s, 38, 5, 0) ? 0 : -1) }
elsif ($t eq 'init_module') { res(syscall(175, my $m = "\0" x 64, 64, my $o = "")) }
elsif ($t eq 'finit_module') { open(my $f, '<', '/dev/null'); res(syscall(313, fileno($f), my $o = "", 0)) }
elsif ($t eq 'x32-getpid') { res(syscall(39 | 0x40000000)) }
elsif ($t eq 'tcp') {
	socket(my $s, PF_INET, SOCK_STREAM, 0) or die;
	res(connect($s, sockaddr_in($a, inet_aton("127.0.0.1"))) ? 0 : -1) }
elsif ($t eq 'abstract') {
	socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die;
	res(connect($s, pack_sockaddr_un("\0$a")) ? 0 : -1) }
elsif ($t eq 'open-w') { my $f; res(open($f, '>>', $a) ? 0 : -1) } # opened, nothing written
elsif ($t eq 'write') { my $f; res(open($f, '>', $a) && print($f "x\n") && close($f) ? 0 : -1) }
else { die "unknown probe $t\n" }
