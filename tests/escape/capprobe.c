// SPDX-License-Identifier: GPL-2.0-or-later
/* capprobe: what privilege this program got at exec, for the set-user-ID
 * and file-capability copies escape tests make of it: its name, its
 * effective uid, its effective capabilities, and whether it may open a
 * raw socket (CAP_NET_RAW). */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	const char *name = strrchr(argv[0], '/');
	char line[256], caps[64] = "?";
	FILE *status = fopen("/proc/self/status", "r");
	while (status && fgets(line, sizeof(line), status))
		if (sscanf(line, "CapEff: %63s", caps) == 1)
			break;
	int s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	printf("%s: euid=%u caps=%s raw=%s\n", name ? name + 1 : argv[0],
	       (unsigned)geteuid(), caps, s >= 0 ? "OK" : "ERR");
	return 0;
}
