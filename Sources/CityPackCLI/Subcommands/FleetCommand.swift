import ArgumentParser
import CityPackBuild
import Foundation

/// `citypack fleet workflow --github | --kubernetes`: a ready-made array job that builds a fleet in shards
/// (`citypack build --fleet F --shard i/n`) and merges them (`citypack catalog --merge`).
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Tools for building many cities: array-job definitions for CI engines.",
        subcommands: [FleetWorkflow.self])
}

struct FleetWorkflow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workflow",
        abstract: "Write a workflow that builds a fleet in shards on several machines and merges them.",
        discussion: """
            --github: a GitHub Actions workflow (a job that builds the citypack image from the Containerfile of \
            --citypack-repository and pushes it to the GitHub Container Registry; a matrix job per shard in that \
            image, each uploading its output folder as an artifact; a merge job that downloads them, runs `citypack catalog --merge` and signs the catalog with \
            the repository secret CITYPACK_SIGNING_KEY when it is set). --kubernetes: an Indexed Job whose pods \
            each build shard $JOB_COMPLETION_INDEX into a shared volume; merge with `citypack catalog --merge`. \
            Written to stdout, or to --output. Exit codes: 0 written, 64 usage, 74 I/O failure.
            """)

    @Flag(name: .long, help: "Write a GitHub Actions workflow.")
    var github = false

    @Flag(name: .long, help: "Write a Kubernetes Indexed Job.")
    var kubernetes = false

    @Option(name: .long, help: "The fleet file, relative to the repository root.")
    var fleet = "fleet.yaml"

    @Option(name: .long, help: "How many shards (machines).")
    var shards = 4

    @Option(name: .long, help: "The git repository citypack is built from in the workflow (--github; required: e.g. your clone's `git remote get-url origin`).")
    var citypackRepository: String?

    @Option(name: .long, help: "The container image with citypack installed, built from citypack's Containerfile (--kubernetes; required).")
    var image: String?

    @Option(name: [.short, .long], help: "Write to this file instead of stdout.")
    var output: String?

    func validate() throws {
        guard github != kubernetes else { throw ValidationError("give exactly one of --github and --kubernetes") }
        guard (1...256).contains(shards) else { throw ValidationError("--shards must be 1…256") }
        guard !fleet.isEmpty, !fleet.contains("'"), !fleet.contains("\n") else { throw ValidationError("--fleet: a plain relative path") }
        // No made-up defaults: a workflow pointing at a repository or image that does not exist fails on its runner.
        if github, (citypackRepository ?? "").isEmpty || citypackRepository!.contains("\n") {
            throw ValidationError("--github needs --citypack-repository URL, the git repository citypack is built from "
                + "(in a clone of it: --citypack-repository \"$(git remote get-url origin)\")")
        }
        if kubernetes, (image ?? "").isEmpty || image!.contains("\n") {
            throw ValidationError("--kubernetes needs --image IMAGE, a container image with citypack installed")
        }
    }

    func run() throws {
        let text = github
            ? FleetWorkflowText.github(fleet: fleet, shards: shards, repository: citypackRepository ?? "")
            : FleetWorkflowText.kubernetes(fleet: fleet, shards: shards, image: image ?? "")
        guard let output else {
            Terminal.out(text)
            return
        }
        do {
            try ReportWriter.atomicWrite(Data(text.utf8), to: output)
        } catch {
            throw CLIError.ioFailure("cannot write \(output): \(error)")
        }
    }
}

/// The workflow texts (also shipped as docs/examples/, checked against these by the tests).
enum FleetWorkflowText {
    static func github(fleet: String, shards: Int, repository: String) -> String {
        let matrix = (0..<shards).map(String.init).joined(separator: ", ")
        // Both jobs run in the image the `image` job pushed (as root: the runner's workspace belongs to root).
        let container = """
            container:
                  image: ${{ needs.image.outputs.image }}
                  credentials:
                    username: ${{ github.actor }}
                    password: ${{ secrets.GITHUB_TOKEN }}
                  options: --user root
            """
        return """
            # Builds the city packs of \(fleet) on \(shards) machines and merges them into one catalog.
            # Written by `citypack fleet workflow --github --citypack-repository \(repository) --shards \(shards) --fleet \(fleet)`.
            # Each shard builds a deterministic, size-balanced share of the cities (`--shard i/\(shards)`); the merge
            # refuses a shard that did not finish, so a half catalog is never published. Set the repository secret
            # CITYPACK_SIGNING_KEY (the file `citypack keygen` writes) to sign the catalog. Every job runs in the
            # citypack image, built once per run from the Containerfile of citypack's repository and pushed to this
            # repository's GitHub Container Registry (the job `image`).
            name: City packs

            on:
              push:
                branches: [main]
              workflow_dispatch:

            permissions:
              contents: read

            env:
              CITYPACK_REPOSITORY: \(repository)

            jobs:
              image:
                name: Build the citypack image
                runs-on: ubuntu-24.04
                permissions:
                  contents: read
                  packages: write
                outputs:
                  image: ${{ steps.name.outputs.image }}
                steps:
                  - name: Name the image
                    id: name
                    env:
                      OWNER: ${{ github.repository_owner }}
                    run: echo "image=ghcr.io/${OWNER,,}/citypack:${GITHUB_SHA}" >> "$GITHUB_OUTPUT"
                  - uses: docker/setup-buildx-action@v3
                  - uses: docker/login-action@v3
                    with:
                      registry: ghcr.io
                      username: ${{ github.actor }}
                      password: ${{ secrets.GITHUB_TOKEN }}
                  - uses: docker/build-push-action@v6
                    with:
                      context: ${{ env.CITYPACK_REPOSITORY }}
                      file: Containerfile
                      push: true
                      tags: ${{ steps.name.outputs.image }}

              shard:
                name: Shard ${{ matrix.shard }} of \(shards)
                needs: image
                runs-on: ubuntu-24.04
                \(container)
                strategy:
                  fail-fast: false
                  matrix:
                    shard: [\(matrix)]
                steps:
                  - uses: actions/checkout@v4
                  - name: Build shard ${{ matrix.shard }}
                    run: >-
                      citypack build --fleet '\(fleet)' --shard "${{ matrix.shard }}/\(shards)"
                      --output "shard-${{ matrix.shard }}" --format json > "shard-${{ matrix.shard }}.json"
                  - name: Fleet summary
                    if: always()
                    run: cat "shard-${{ matrix.shard }}.json" || true
                  - uses: actions/upload-artifact@v4
                    with:
                      name: shard-${{ matrix.shard }}
                      path: shard-${{ matrix.shard }}/
                      if-no-files-found: error

              merge:
                name: Merge shards into one catalog
                needs: [image, shard]
                runs-on: ubuntu-24.04
                \(container)
                steps:
                  - uses: actions/download-artifact@v4
                    with:
                      pattern: shard-*
                      path: shards
                  - name: Merge
                    env:
                      CITYPACK_SIGNING_KEY: ${{ secrets.CITYPACK_SIGNING_KEY }}
                    run: |
                      sign=()
                      if [ -n "$CITYPACK_SIGNING_KEY" ]; then
                        umask 077
                        printf '%s\\n' "$CITYPACK_SIGNING_KEY" > "$RUNNER_TEMP/citypack.key"
                        sign=(--sign-key "$RUNNER_TEMP/citypack.key")
                      fi
                      citypack catalog --merge shards/shard-* --output packs "${sign[@]}"
                  - name: Publish
                    run: citypack publish packs --site site
                  - uses: actions/upload-artifact@v4
                    with:
                      name: site
                      path: site/
                      if-no-files-found: error

            """
    }

    static func kubernetes(fleet: String, shards: Int, image: String) -> String {
        """
        # Builds the city packs of \(fleet) on \(shards) pods (a Kubernetes Indexed Job): pod i builds shard i of
        # \(shards) into /work/shards/shard-i on a shared volume. When the Job has succeeded, merge the shards into
        # one catalog (the merge refuses a shard that did not finish):
        #   citypack catalog --merge /work/shards/shard-* --output /work/packs
        #   citypack publish /work/packs --site /work/site      # then upload /work/site as it is
        # Written by `citypack fleet workflow --kubernetes --image \(image) --shards \(shards) --fleet \(fleet)`.
        # The image is built from citypack's Containerfile: docker build -f Containerfile -t \(image) .
        # It runs as user 1000 (citypack): the volume must let that user write (fsGroup below).
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: citypack-fleet
        spec:
          completionMode: Indexed
          completions: \(shards)
          parallelism: \(shards)
          backoffLimitPerIndex: 2
          template:
            spec:
              restartPolicy: Never
              securityContext:
                fsGroup: 1000
              containers:
                - name: citypack
                  image: \(image)
                  workingDir: /work
                  command: ["/bin/sh", "-c"]
                  args:
                    - >-
                      rm -rf "/work/shards/shard-$JOB_COMPLETION_INDEX" &&
                      citypack build --fleet '\(fleet)' --shard "$JOB_COMPLETION_INDEX/\(shards)"
                      --output "/work/shards/shard-$JOB_COMPLETION_INDEX" --quiet
                  volumeMounts:
                    - name: work
                      mountPath: /work
              volumes:
                - name: work
                  persistentVolumeClaim:
                    claimName: citypack-work

        """
    }
}
