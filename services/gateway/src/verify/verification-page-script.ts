/**
 * The verification page's one script, served from this origin so the policy can refuse inline
 * script. Per file: POST uploads -> PUT the bytes to the presigned URL with exactly its headers ->
 * POST captures; then Submit. Plain ES2020 for the browser (the gateway compiles without DOM types);
 * the spec checks that it parses, the lead's headless-Chromium suite that it works.
 */
export const VERIFICATION_PAGE_SCRIPT = String.raw`'use strict';
(function () {
  var main = document.querySelector('main[data-base]');
  if (!main || main.dataset.status !== 'PENDING') return;
  var base = main.dataset.base;
  var needed = (main.dataset.needed || '').split(' ').filter(Boolean);
  var statusLine = document.getElementById('status');
  var submit = document.getElementById('submit');
  var returnLine = document.getElementById('return');
  var KINDS = ['document', 'selfie'];
  var CHECKING = 'Thank you — we are checking your details';
  // The browser sets these itself from the body; fetch refuses to be given them.
  var FORBIDDEN_HEADERS = ['content-length', 'host', 'connection'];
  var busy = false;

  function say(text) {
    statusLine.textContent = text;
  }
  function captured() {
    return (main.dataset.captured || '').split(' ').filter(Boolean);
  }
  function stillNeeded() {
    var have = captured();
    var missing = needed.filter(function (kind) { return have.indexOf(kind) < 0; });
    if (missing.length === 0) return 'Everything is ready: press Submit.';
    return 'Still needed: ' + missing.map(function (kind) { return 'your ' + kind; }).join(' and ') + '.';
  }
  function controls() {
    return Array.prototype.slice.call(main.querySelectorAll('input[type=file], section button'));
  }
  function render() {
    var have = captured();
    var ready = needed.every(function (kind) { return have.indexOf(kind) >= 0; });
    submit.disabled = busy || !ready;
    controls().forEach(function (control) { control.disabled = busy; });
    needed.forEach(function (kind) {
      var state = document.getElementById(kind + '-state');
      if (state) state.textContent = have.indexOf(kind) >= 0 ? 'Received' : 'Not given yet';
    });
  }
  function show(view) {
    var kinds = view.captures.map(function (capture) { return capture.kind; });
    main.dataset.captured = KINDS.filter(function (kind) { return kinds.indexOf(kind) >= 0; }).join(' ');
    main.dataset.status = view.status;
  }

  /** The gateway's JSON endpoints: the answer's data, or an Error carrying its message. */
  async function post(path, body) {
    var response = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    var answer = null;
    try {
      answer = await response.json();
    } catch (ignored) {
      answer = null;
    }
    if (!response.ok) {
      var message = answer && typeof answer.message === 'string' ? answer.message : 'the request failed';
      var problems = answer && answer.errors ? Object.keys(answer.errors) : [];
      var details = problems.map(function (field) { return field + ' ' + [].concat(answer.errors[field]).join(', '); });
      if (details.length > 0) message = details.join('; ');
      throw new Error('Sorry, that did not work: ' + message + ' (' + response.status + ').');
    }
    return answer.data;
  }

  /** One file: a presigned upload, the bytes straight to storage, then the capture. */
  async function give(kind, file) {
    if (busy) return;
    busy = true;
    render();
    try {
      say('Uploading your ' + kind + '…');
      var upload = await post('/uploads', { kind: kind, content_type: file.type, content_length: file.size });
      var headers = {};
      Object.keys(upload.headers || {}).forEach(function (name) {
        if (FORBIDDEN_HEADERS.indexOf(name.toLowerCase()) < 0) headers[name] = upload.headers[name];
      });
      var stored = await fetch(upload.upload_url, {
        method: upload.method || 'PUT',
        headers: headers,
        body: file,
        credentials: 'omit',
      });
      if (!stored.ok) throw new Error('Sorry, the upload was refused (' + stored.status + '). Please try again.');
      show(await post('/captures', { file_id: upload.file_id }));
      say(stillNeeded());
    } catch (error) {
      say(error instanceof Error ? error.message : 'Sorry, that did not work. Please try again.');
    } finally {
      busy = false;
      render();
    }
  }

  /** A small PNG drawn here: the sandbox's stand-in for a real document or face. */
  function standIn(kind) {
    var canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = kind === 'document' ? 200 : 320;
    var context = canvas.getContext('2d');
    context.fillStyle = kind === 'document' ? '#dfe8f5' : '#f3e6da';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = '#1b1f24';
    context.font = '16px sans-serif';
    if (kind === 'document') {
      context.fillText('SANDBOX IDENTITY CARD', 20, 32);
      context.fillRect(20, 52, 90, 120);
      ['Jane Sandbox', '1990-01-01', 'No. SBX-0001'].forEach(function (line, index) {
        context.fillText(line, 130, 80 + index * 30);
      });
    } else {
      context.beginPath();
      context.arc(160, 150, 90, 0, Math.PI * 2);
      context.stroke();
      context.fillRect(120, 120, 14, 14);
      context.fillRect(186, 120, 14, 14);
      context.beginPath();
      context.arc(160, 175, 40, 0.15 * Math.PI, 0.85 * Math.PI);
      context.stroke();
      context.fillText('SANDBOX SELFIE', 100, 290);
    }
    return new Promise(function (resolve, reject) {
      canvas.toBlob(function (blob) {
        if (blob) resolve(blob);
        else reject(new Error('Sorry, this browser could not draw the stand-in.'));
      }, 'image/png');
    });
  }

  needed.forEach(function (kind) {
    var input = document.getElementById(kind + '-file');
    if (input) {
      input.addEventListener('change', function () {
        var file = input.files && input.files[0];
        if (file) give(kind, file).then(function () { input.value = ''; });
      });
    }
    var button = document.getElementById(kind + '-standin');
    if (button) {
      button.addEventListener('click', function () {
        standIn(kind).then(function (blob) { return give(kind, blob); }, function (error) { say(error.message); });
      });
    }
  });

  submit.addEventListener('click', async function () {
    if (busy) return;
    busy = true;
    render();
    try {
      say('Submitting…');
      var view = await post('/submit', {});
      show(view);
      main.querySelectorAll('section').forEach(function (section) { section.hidden = true; });
      submit.hidden = true;
      say(CHECKING);
      if (view.return_url) {
        var link = document.createElement('a');
        link.href = view.return_url;
        link.textContent = 'Return to ' + view.business_name;
        returnLine.replaceChildren(link);
        returnLine.hidden = false;
        // A moment to read the thanks, then back to the business with the session and its status.
        setTimeout(function () { window.location.assign(view.return_url); }, 1500);
      }
    } catch (error) {
      say(error instanceof Error ? error.message : 'Sorry, that did not work. Please try again.');
      busy = false;
      render();
    }
  });

  render();
})();
`;
