package protocols.lab;

import io.gatling.core.CoreComponents;
import protocols.rpc.RunObserver;

/**
 * The run a simulation of one's own gets without asking ({@link java.util.ServiceLoader}, from
 * {@code META-INF/services}): the lab's µs recording, {@code rpc-summary.json}, {@code rpc-report.html}
 * and validity warnings, and its exit statuses.
 */
public final class LabRunFactory implements RunObserver.Factory {
  @Override
  public RunObserver create(CoreComponents core) {
    return new LabRun(LoadParams.fromSystemProperties()).attach(core);
  }
}
