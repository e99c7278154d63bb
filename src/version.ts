/** The vcc version shared by `vcc --version`, the bridge handshake and the plugin manifest. */
export const VERSION = "0.3.0";
