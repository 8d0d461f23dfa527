// Debian's Chromium as every Playwright config here launches it (no browser
// download: the machine has no internet): the e2e tests and `make bench-front`.
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
  ],
};

// The same with a fake microphone that plays `wav` in a loop (16-bit PCM),
// permission granted without a prompt: the voice-input tests.
export function withFakeMicrophone(wav: string) {
  return {
    ...chromiumLaunch,
    args: [
      ...chromiumLaunch.args,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
    ],
  };
}
