import http.server, urllib.parse, os, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        u = urllib.parse.urlparse(self.path)
        if u.path == '/rec.html':
            b = open('record.html','rb').read(); self.send_response(200); self.send_header('content-type','text/html'); self.end_headers(); self.wfile.write(b); return
        print('LOG', u.query, flush=True)
        if 'done' in u.query: open('DONE','w').close()
        self.send_response(200); self.end_headers()
    def do_POST(self):
        u = urllib.parse.urlparse(self.path); q = urllib.parse.parse_qs(u.query)
        n = int(self.headers['content-length']); b = self.rfile.read(n)
        name = q['name'][0].replace('/','_').replace(';','_').replace('=','_').replace(',','_')
        open('out/' + name, 'wb').write(b); print('SAVED', name, n, flush=True)
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
os.makedirs('out', exist_ok=True)
http.server.HTTPServer(('127.0.0.1', 8765), H).serve_forever()
