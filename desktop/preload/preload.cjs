// Preload (sandboxed, context-isolated): exposes only the app's configuration.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld('opsDesktop', {
  config: () => ipcRenderer.invoke('ops:config'),
});
