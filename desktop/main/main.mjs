// Electron main process: one window, context isolation, no Node in the renderer.
// The renderer is the same web app the server serves at /app/; it talks to the
// server configured by OPS_SERVER_URL (default http://127.0.0.1:3000).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, shell } from 'electron';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverUrl = process.env.OPS_SERVER_URL ?? 'http://127.0.0.1:3000';

function createWindow() {
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Ops Platform',
    webPreferences: {
      preload: path.join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  // External links open in the system browser, never inside the app.
  win.webContents.setWindowOpenHandler(({ url }) => {
    void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadFile(path.join(here, '../renderer-dist/index.html'));
}

ipcMain.handle('ops:config', () => ({ serverUrl, platform: process.platform, version: app.getVersion() }));

app.whenReady().then(() => {
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
