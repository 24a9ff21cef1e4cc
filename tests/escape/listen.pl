#!/usr/bin/perl
# listen.pl PORTFILE NAME: the host services the escape tests try to reach
# from inside: a TCP listener on 127.0.0.1 (its port written to PORTFILE
# once it listens) and a Unix socket listening on the abstract name NAME.
# Accepts and closes connections on both until killed.
use strict; use warnings; use IO::Socket::INET; use IO::Select; use Socket;
my ($portfile, $name) = @ARGV;
my $tcp = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0,
				ReuseAddr => 1) or die "listen.pl: tcp: $!\n";
socket(my $unix, PF_UNIX, SOCK_STREAM, 0) or die "listen.pl: socket: $!\n";
bind($unix, pack_sockaddr_un("\0$name")) or die "listen.pl: bind \@$name: $!\n";
listen($unix, 5) or die "listen.pl: listen: $!\n";
open my $p, '>', "$portfile.tmp" or die "listen.pl: $portfile: $!\n";
print $p $tcp->sockport, "\n";
close $p;
rename "$portfile.tmp", $portfile or die "listen.pl: $portfile: $!\n";
my $sel = IO::Select->new($tcp, $unix);
while (1) {
	for my $s ($sel->can_read) {
		my $c;
		close $c if accept($c, $s);
	}
}
