/* The tc program's object file, linked into hxb-relayd so that the daemon
 * is one self-contained binary. HXB_RELAY_OBJ is its path as seen from the
 * directory make runs the compiler in. */
__asm__(".section .rodata\n"
        ".balign 8\n"
        ".global hxb_relay_obj\n"
        "hxb_relay_obj:\n"
        ".incbin \"" HXB_RELAY_OBJ "\"\n"
        ".global hxb_relay_obj_end\n"
        "hxb_relay_obj_end:\n"
        ".previous\n");
