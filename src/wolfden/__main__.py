from wolfden.cli import main

main()
