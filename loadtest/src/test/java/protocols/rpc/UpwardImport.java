package protocols.rpc;

import protocols.lab.LabRun;

/** Not a test: a plugin class that reaches up into the lab, which LayersTest shows its rules refuse. */
final class UpwardImport {
  private UpwardImport() {}

  static Object recorderOf(LabRun run) {
    return run.recorder();
  }
}
