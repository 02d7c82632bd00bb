import type * as O from 'obsidian';

/**
 * Obsidian's `Platform` (obsidian.d.ts) as seen by a plugin in the desktop app: desktop,
 * not mobile; the OS flags follow the machine running the host.
 */
export const Platform: typeof O.Platform = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: process.platform === 'darwin',
  isWin: process.platform === 'win32',
  isLinux: process.platform === 'linux',
  isSafari: false,
  resourcePathPrefix: 'file:///',
};
