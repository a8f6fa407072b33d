// Electron main process: one window, context isolation, sandbox, no Node in the
// renderer. The renderer is the same web app the server serves at /app/,
// loaded from disk; it keeps its data in IndexedDB, one database per login
// (server, company, user: named by client-core), so it starts without a network.
//
// The server is OPS_SERVER_URL, else `serverUrl` in <userData>/config.json,
// else http://127.0.0.1:3000.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererIndex = path.join(here, '../renderer-dist/index.html');

function readServerUrl() {
  if (process.env.OPS_SERVER_URL) return process.env.OPS_SERVER_URL;
  try {
    const config = JSON.parse(fs.readFileSync(path.join(app.getPath('userData'), 'config.json'), 'utf8'));
    if (typeof config.serverUrl === 'string' && config.serverUrl) return config.serverUrl;
  } catch {
    // No config file: the default below.
  }
  return 'http://127.0.0.1:3000';
}

/**
 * The renderer (file://) calls the API on another origin, and the server sends
 * no CORS headers. Answer CORS for that one origin here: preflights succeed,
 * responses are readable. No cookies are involved (bearer tokens), so `*` is
 * enough; Authorization must be listed by name (`*` does not cover it).
 */
function allowApiCors(serverOrigin) {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    if (!details.url.startsWith(`${serverOrigin}/`)) return callback({});
    const headers = { ...details.responseHeaders };
    for (const name of Object.keys(headers)) if (name.toLowerCase().startsWith('access-control-')) delete headers[name];
    headers['Access-Control-Allow-Origin'] = ['*'];
    headers['Access-Control-Allow-Headers'] = ['authorization, content-type, accept'];
    headers['Access-Control-Allow-Methods'] = ['GET, POST, OPTIONS'];
    headers['Access-Control-Max-Age'] = ['600'];
    // The server does not know OPTIONS; a preflight only needs a 2xx with the headers above.
    if (details.method === 'OPTIONS')
      return callback({ responseHeaders: headers, statusLine: 'HTTP/1.1 204 No Content' });
    callback({ responseHeaders: headers });
  });
}

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
      webSecurity: true,
    },
  });
  // External links open in the system browser, never inside the app.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // The window only ever shows the bundled renderer.
  win.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith('file:')) event.preventDefault();
  });
  void win.loadFile(rendererIndex);
  return win;
}

if (!app.requestSingleInstanceLock()) {
  // One instance per login keeps one writer on the local database.
  app.quit();
} else {
  const serverUrl = readServerUrl().replace(/\/+$/, '');
  let main = null;

  ipcMain.handle('ops:config', () => ({ serverUrl, platform: process.platform, version: app.getVersion() }));

  app.on('second-instance', () => {
    if (!main) return;
    if (main.isMinimized()) main.restore();
    main.focus();
  });

  app.whenReady().then(() => {
    allowApiCors(new URL(serverUrl).origin);
    // The app needs no camera, location, notifications...: refuse every permission prompt.
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    main = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) main = createWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
