/** Where the daemon never reads or writes order files or labels, whatever the files roots say. */

/** System directories of a Linux or macOS host: refused by path, with everything under them. */
export const SYSTEM_DIRECTORIES: readonly string[] = [
  '/proc', '/sys', '/dev', '/run', '/boot', '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32',
  '/var/lib', '/var/run', '/var/lock', '/snap', '/efi', '/lost+found',
  '/System', '/Library', '/private/etc', '/private/var/run', '/private/var/db', '/cores',
];

/**
 * Kernel and pseudo file systems by their statfs magic number (linux/magic.h): files written there are not kept, or
 * they change the kernel's state. devtmpfs reports tmpfs's number and is refused by its path (/dev).
 */
export const PSEUDO_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0x65735543, 'fusectl'],
  [0x19800202, 'mqueue'],
  [0x958458f6, 'hugetlbfs'],
  [0x0187, 'autofs'],
  [0x42494e4d, 'binfmt_misc'],
  [0xde5e81e4, 'efivarfs'],
  [0xf97cff8c, 'selinuxfs'],
  [0x43415d53, 'smackfs'],
  [0x6e736673, 'nsfs'],
  [0x9fa1, 'openpromfs'],
  [0x9fa2, 'usbdevfs'],
  [0x67596969, 'rpc_pipefs'],
  [0x6e667364, 'nfsd'],
]);
