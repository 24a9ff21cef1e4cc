/* getpid through the 32-bit entry (int 0x80, eax = 20): prints the pid or -errno. */
#include <stdio.h>
int main(void)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
	printf("int80:%ld\n", r);
	return 0;
}
