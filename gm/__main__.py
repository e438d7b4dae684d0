from gm.cli import main

main()
