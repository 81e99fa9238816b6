package protocols;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The main classes' layers, bottom to top, each using only those below it: the Gatling plugin a user
 * imports (protocols.rpc and each framework's DSL), recording (stats, live), load shapes and analysis
 * (load), reports, the lab (lab, frameworks, each framework's lab package), and on top the shootout,
 * the nightly run and the merge. See docs/architecture.md.
 */
class LayersTest {
  static final String[] ADAPTERS = {"protocols.dubbo", "protocols.thrift", "protocols.grpc", "protocols.ice",
      "protocols.netty"};
  static final String[] PLUGIN = {"protocols.rpc..", "protocols.dubbo", "protocols.thrift", "protocols.grpc",
      "protocols.ice", "protocols.netty"};
  static final String[] BELOW_THE_LAB = {"protocols.rpc..", "protocols.dubbo", "protocols.thrift", "protocols.grpc",
      "protocols.ice", "protocols.netty", "protocols.stats..", "protocols.live..", "protocols.load..",
      "protocols.report.."};

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("protocols");
  }

  /** The layers as rules, for this test and for the check that a wrong import fails them. */
  static ArchRule layers() {
    return layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("Plugin").definedBy(PLUGIN)
        .layer("Recording").definedBy("protocols.stats..", "protocols.live..")
        .layer("Load").definedBy("protocols.load..")
        .layer("Reports").definedBy("protocols.report..")
        .layer("Lab").definedBy("protocols.lab..", "protocols.frameworks..", "protocols.*.lab..")
        .layer("Top").definedBy("protocols.shootout..", "protocols.nightly..", "protocols.merge..",
            "protocols.compare..")
        .whereLayer("Top").mayNotBeAccessedByAnyLayer()
        .whereLayer("Lab").mayOnlyBeAccessedByLayers("Top")
        .whereLayer("Reports").mayOnlyBeAccessedByLayers("Lab", "Top")
        .whereLayer("Load").mayOnlyBeAccessedByLayers("Reports", "Lab", "Top")
        .whereLayer("Recording").mayOnlyBeAccessedByLayers("Load", "Reports", "Lab", "Top")
        .whereLayer("Plugin").mayOnlyBeAccessedByLayers("Recording", "Load", "Reports", "Lab", "Top")
        .because("a lower layer never imports a higher one");
  }

  @Test
  void eachLayerUsesOnlyTheLayersBelowIt() {
    assertTrue(main.contain("protocols.rpc.RpcCallAction") && main.contain("protocols.shootout.Shootout"),
        "the main classes were imported");
    assertFalse(main.contain("protocols.rpc.UpwardImport"), "and no test class");
    layers().check(main);
  }

  @Test
  void oneUpwardImportFailsTheLayers() {
    // The main classes and one plugin class of the tests' that uses the lab's run object.
    JavaClasses withUpward = new ClassFileImporter()
        .withImportOption(at -> !at.contains("/test-classes/") || at.contains("UpwardImport"))
        .importPackages("protocols");
    EvaluationResult result = layers().evaluate(withUpward);
    assertTrue(result.hasViolation(), "an upward import passed the layers");
    List<String> details = result.getFailureReport().getDetails();
    assertTrue(details.stream().allMatch(d -> d.contains("protocols.rpc.UpwardImport")), "only it: " + details);
  }

  @Test
  void noPackagesDependOnEachOtherInACircle() {
    slices().matching("protocols.(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void aFrameworksDslUsesNoOtherFrameworks() {
    for (String adapter : ADAPTERS) {
      String[] others = java.util.Arrays.stream(ADAPTERS).filter(a -> !a.equals(adapter)).toArray(String[]::new);
      noClasses().that().resideInAPackage(adapter).should().dependOnClassesThat().resideInAnyPackage(others)
          .check(main);
    }
  }

  @Test
  void belowTheLabNothingEndsTheJvm() {
    noClasses().that().resideInAnyPackage(BELOW_THE_LAB)
        .should().callMethod(System.class, "exit", int.class)
        .orShould().callMethod(Runtime.class, "exit", int.class)
        .orShould().callMethod(Runtime.class, "halt", int.class)
        .because("errors below the lab are exceptions or KOs; the lab decides how a run ends")
        .check(main);
  }

  @Test
  void belowTheLabNoRunStateInStatics() {
    fields().that().areStatic().and().areDeclaredInClassesThat().resideInAnyPackage(BELOW_THE_LAB)
        .should().beFinal()
        .andShould().notHaveRawType(java.util.concurrent.atomic.AtomicLong.class)
        .andShould().notHaveRawType(java.util.concurrent.atomic.AtomicInteger.class)
        .andShould().notHaveRawType(java.util.concurrent.atomic.AtomicBoolean.class)
        .andShould().notHaveRawType(java.util.concurrent.ConcurrentHashMap.class)
        .because("a run's state belongs to its run object, passed to what needs it")
        .allowEmptyShould(true)
        .check(main);
  }

  @Test
  void aSimulationOfOnesOwnNeedsOnlyTheDsl() {
    JavaClasses example = new ClassFileImporter().importClasses(simulations.GrpcOwnService.class,
        simulations.DubboOwnService.class, simulations.ThriftOwnService.class, simulations.IceOwnService.class);
    noClasses().should().dependOnClassesThat().resideInAnyPackage("protocols.stats..", "protocols.load..",
        "protocols.report..", "protocols.lab..", "protocols.frameworks..", "protocols.*.lab..", "protocols.shootout..",
        "protocols.nightly..", "protocols.merge..", "protocols.compare..")
        .because("the plugin's DSL and Gatling are all a simulation of one's own service needs")
        .check(example);
  }
}
